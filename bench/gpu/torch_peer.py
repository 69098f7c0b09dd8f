"""PyTorch on the same GPU as glpool, for bench/gpu/gpu_report.py: the
torchvision model of each architecture and each conv shape, fp32 with TF32
off (the FMA lanes glpool's GLSL uses), cuDNN autotuned. Reads a job file
{"models": [{"model", "arch", "shape"}], "convs": [{"shape", "spec"}]},
prints one JSON line {"models": {model: ms}, "convs": {shape: ms}}."""
import json
import statistics
import sys
import time

import torch
import torchvision

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True


def model_ms(arch, shape, runs=50):
    """A whole run as glpool's is timed: input from CPU memory, output back."""
    kwargs = {'aux_logits': False, 'init_weights': False} if arch in ('googlenet', 'inception_v3') else {}
    model = getattr(torchvision.models, arch)(weights=None, **kwargs).eval().cuda()
    x = torch.rand(shape)
    times = []
    with torch.no_grad():
        for i in range(runs + 10):
            torch.cuda.synchronize()
            start = time.perf_counter()
            y = model(x.cuda())
            y = y.cpu() if torch.is_tensor(y) else y
            torch.cuda.synchronize()
            if i >= 10:
                times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def conv_ms(spec, runs=50):
    (c, h, w), oc, k, stride, groups = spec
    x = torch.rand(1, c, h, w, device='cuda')
    weight = torch.rand(oc, c // groups, k, k, device='cuda')
    bias = torch.rand(oc, device='cuda')
    times = []
    with torch.no_grad():
        for i in range(runs + 10):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.nn.functional.conv2d(x, weight, bias, stride=stride, padding=k // 2, groups=groups)
            end.record()
            torch.cuda.synchronize()
            if i >= 10:
                times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    with open(sys.argv[1]) as f:
        jobs = json.load(f)
    out = {'models': {}, 'convs': {}, 'torch': torch.__version__, 'errors': {}}
    for job in jobs['models']:
        try:
            out['models'][job['model']] = model_ms(job['arch'], job['shape'])
        except Exception as e:  # one architecture torchvision lacks must not lose the rest
            out['errors'][job['model']] = str(e)[:200]
        sys.stderr.write('torch %s: %s\n' % (job['model'], out['models'].get(job['model'])))
    for job in jobs['convs']:
        out['convs'][job['shape']] = conv_ms(job['spec'])
    print(json.dumps(out))


if __name__ == '__main__':
    main()
