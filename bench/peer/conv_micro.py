"""Conv microbenchmark: GFLOP/s of glpool's Conv kernels on this machine's
GL driver (llvmpipe here) for 1x1, 3x3, depthwise and strided shapes,
against the machine's fp32 peak and ONNX Runtime on the same CPU.
Run through bench/conv_micro.sh."""
import argparse
import json
import os
import statistics
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, input [C, H, W], output channels, kernel, stride, groups
SHAPES = [
    ('1x1 96->24 @56', (96, 56, 56), 24, 1, 1, 1),
    ('1x1 64->64 @56', (64, 56, 56), 64, 1, 1, 1),
    ('1x1 320->1280 @7', (320, 7, 7), 1280, 1, 1, 1),
    ('3x3 64->64 @56', (64, 56, 56), 64, 3, 1, 1),
    ('3x3 256->256 @14', (256, 14, 14), 256, 3, 1, 1),
    ('3x3 s2 32->64 @112', (32, 112, 112), 64, 3, 2, 1),
    ('3x3 s2 3->32 @224 (stem)', (3, 224, 224), 32, 3, 2, 1),
    ('depthwise 3x3 144 @56', (144, 56, 56), 144, 3, 1, 144),
    ('depthwise 3x3 s2 96 @112', (96, 112, 112), 96, 3, 2, 96),
]


def fail(message):
    sys.stderr.write('conv_micro: ' + message + '\n')
    sys.exit(1)


def make_case(folder, shape):
    name, (c, h, w), oc, k, stride, groups = shape
    rng = np.random.default_rng(0)
    weight = (rng.random((oc, c // groups, k, k), dtype=np.float32) - 0.5) * 0.2
    bias = (rng.random(oc, dtype=np.float32) - 0.5) * 0.2
    pad = k // 2
    node = helper.make_node('Conv', ['x', 'w', 'b'], ['y'], kernel_shape=[k, k], strides=[stride, stride],
                            pads=[pad] * 4, group=groups)
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    graph = helper.make_graph([node], 'conv', [helper.make_tensor_value_info('x', onnx.TensorProto.FLOAT, [1, c, h, w])],
                              [helper.make_tensor_value_info('y', onnx.TensorProto.FLOAT, [1, oc, oh, ow])],
                              [numpy_helper.from_array(weight, 'w'), numpy_helper.from_array(bias, 'b')])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 8
    path = os.path.join(folder, 'model.onnx')
    onnx.save(model, path)
    x = rng.random((1, c, h, w), dtype=np.float32)
    with open(os.path.join(folder, 'x.pb'), 'wb') as f:
        f.write(numpy_helper.from_array(x, 'x').SerializeToString())
    x.astype('<f4').tofile(os.path.join(folder, 'x.f32'))
    with open(os.path.join(folder, 'inputs.json'), 'w') as f:
        json.dump([{'name': 'x', 'shape': [1, c, h, w], 'file': os.path.join(folder, 'x.f32')}], f)
    flops = 2.0 * oc * oh * ow * (c // groups) * k * k
    return path, flops


def run_json(command):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        fail('`%s` failed: %s' % (' '.join(command), done.stderr.strip()[-2000:]))
    return json.loads(done.stdout)


def peak():
    """fp32 peak = cores x FMA lanes x FMA pipes x 2 FLOPs x clock."""
    flags, clock, model, vendor, family, cpu_model = set(), 0.0, '', '', -1, -1
    with open('/proc/cpuinfo') as f:
        for line in f:
            key, _, value = line.partition(':')
            key = key.strip()
            if key == 'flags' and not flags:
                flags = set(value.split())
            elif key == 'cpu MHz' and not clock:
                clock = float(value) / 1000.0
            elif key == 'model name' and not model:
                model = value.strip()
            elif key == 'vendor_id' and not vendor:
                vendor = value.strip()
            elif key == 'cpu family' and family < 0:
                family = int(value)
            elif key == 'model' and cpu_model < 0:
                cpu_model = int(value)
    lanes = 16 if 'avx512f' in flags else 8 if 'avx2' in flags else 4
    # Zen and Zen+ (AMD family 23, models below 0x30) have 128-bit FMA
    # pipes: a 256-bit AVX2 operation issues as two halves.
    if vendor == 'AuthenticAMD' and family == 23 and cpu_model < 0x30:
        lanes = 4
    pipes = 2 if 'fma' in flags else 1
    cores = os.cpu_count()
    return cores * lanes * pipes * 2 * clock, cores, lanes, pipes, clock, model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--glpool', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--runs', type=int, default=5)
    # The conv task's time is the median over this many processes, each
    # timing one run: a single run moves by 2x on a busy machine.
    parser.add_argument('--profile-runs', type=int, default=7)
    # Buffers, as bench/vs_onnxruntime.sh runs whole models: fp32 buffer
    # sessions run 3x3 stride-1 convs as Winograd's F(4x4, 3x3).
    parser.add_argument('--objects', default='buffers', choices=['textures', 'buffers', 'arena'])
    args = parser.parse_args()
    total, cores, lanes, pipes, clock, model = peak()
    rows = []
    for shape in SHAPES:
        folder = os.path.join(args.work, 'conv%d' % len(rows))
        os.makedirs(folder, exist_ok=True)
        path, flops = make_case(folder, shape)
        glpool = [args.glpool, 'run', path, '--input', os.path.join(folder, 'x.pb'), '--repeat', str(args.runs + 1),
                  '--json', '--objects', args.objects]
        run_json(glpool)  # compiles into Mesa's shader cache
        ours = run_json(glpool)
        # The conv's tasks: one, or Winograd's three (input transform,
        # products, output transform), summed per process.
        profiles = [run_json(glpool + ['--profile', '10'])['slowest_tasks'] for _ in range(args.profile_runs)]
        task_ms = statistics.median(sum(task['ms'] for task in tasks) for tasks in profiles)
        shaders = ' + '.join(task['shader'] for task in sorted(profiles[0], key=lambda task: task['task']))
        ort = run_json(['node', os.path.join(ROOT, 'bench', 'peer', 'ort_run.js'), path,
                        os.path.join(folder, 'inputs.json'), str(args.runs)])
        ort_ms = statistics.median(ort['ms'])
        rows.append((shape[0], shaders, flops, ours['median_ms'], task_ms, ort_ms))
        sys.stderr.write('%s: glpool %.2f ms (conv task %.2f ms), ORT %.2f ms\n' % (shape[0], ours['median_ms'],
                                                                                task_ms, ort_ms))
    lines = [
        '# Conv microbenchmark: GFLOP/s against the fp32 peak',
        '',
        'Made by `bash bench/conv_micro.sh`. One Conv per model (opset 13, batch 1, fp32, pads k/2, bias), '
        '`glpool run --repeat %d` (%s, strategy auto; the median `glpool run --json` reports over all its runs, '
        'the first included) and ONNX Runtime (onnxruntime-node, 2 threads) on the same model '
        'and input. *glpool run*: the whole `Run` (input upload, the conv, output readback); *conv tasks*: the '
        'conv\'s dispatches alone from `--profile 10` (the driver\'s timer queries around each in the last run, '
        'summed; the median over %d processes), which the GFLOP/s use; *shaders*: the tasks the conv runs as '
        '(`winograd_input + conv + winograd_output`: Winograd\'s F(4x4, 3x3), whose FLOPs are still counted '
        'as the direct conv\'s). FLOPs = 2 x output '
        'elements x input channels per group x kernel taps.' % (args.runs + 1, args.objects, args.profile_runs),
        '',
        'Machine peak: %s, %d cores x %d fp32 lanes (%s) x %d FMA pipes x 2 FLOPs per FMA x %.2f GHz '
        '(`cpu MHz` in /proc/cpuinfo) = **%.1f GFLOP/s**.' % (model, cores, lanes,
                                                            'AVX-512' if lanes == 16 else 'AVX2' if lanes == 8
                                                            else '128-bit FMA pipes', pipes, clock,
                                                            total),
        '',
        '| shape | shaders | MFLOP | glpool run ms | conv tasks ms | glpool GFLOP/s | % of peak | ORT ms | '
        'ORT GFLOP/s | glpool run / ORT |',
        '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ]
    for name, shaders, flops, ms, task_ms, ort_ms in rows:
        g = flops / task_ms / 1e6
        lines.append('| %s | %s | %.0f | %.2f | %.2f | %.2f | %.1f%% | %.2f | %.2f | %.1fx |' % (
            name, shaders, flops / 1e6, ms, task_ms, g, 100 * g / total, ort_ms, flops / ort_ms / 1e6, ms / ort_ms))
    lines.append('')
    fastest_ort = max(flops / ort_ms / 1e6 for _, _, flops, _, _, ort_ms in rows)
    if fastest_ort > total:
        lines.append('ONNX Runtime runs above this peak (%.1f GFLOP/s): the clock /proc/cpuinfo gives is below the '
                     'one the cores run at (boost, or a virtual machine reporting its base clock), so the '
                     'percentages above overstate.' % fastest_ort)
        lines.append('')
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines))
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
