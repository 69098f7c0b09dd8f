"""GPU bench: glpool on a real GPU (EGL's device platform, e.g. NVIDIA),
-> bench/reports/gpu_<device>.md. Run through bench/gpu_report.sh.

What it measures, most important first, each step under one deadline so a
lease that ends early still leaves a report of what ran:
  1. the device (GL renderer, driver, clocks) and its fp32 peak;
  2. correctness on this driver: `glpool test-onnx --backend gpu` on real
     models with ONNX Runtime's outputs;
  3. per model: ms per run pooled (buffers, textures) and naive, the first
     run, pool bytes, the slowest tasks by GPU time (timer queries);
  4. conv throughput per shape from the conv task's GPU time, as a fraction
     of the fp32 peak;
  5. PyTorch (cuDNN, fp32, TF32 off) on the same architectures and conv
     shapes, where torch and torchvision are importable;
  6. the kernel tests and ONNX's node test cases on this driver.
Raw results go to a JSON file beside the report; `--render RAW.json`
rewrites the report from one without running anything."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'bench', 'peer'))
sys.path.insert(0, os.path.join(ROOT, 'bench', 'gpu'))

from gpu_report_render import DEFAULT_STEPS, device_slug, render  # noqa: E402

# Zoo architectures (graph-only files, weights filled by --random-weights);
# each is also a torchvision model of the same name for the PyTorch column.
ZOO = ['squeezenet1_1', 'mobilenet_v2', 'mobilenet_v3_small', 'mobilenet_v3_large', 'resnet18', 'resnet50',
       'efficientnet_b0', 'mnasnet1_0', 'shufflenet_v2_x1_0', 'regnet_y_400mf', 'googlenet', 'densenet121',
       'inception_v3']
# Shared models with real weights and ONNX Runtime's outputs.
SHARED = ['squeezenet1_1', 'u2netp', 'mobilenet_v3_small', 'mobilenet_v2']
PPOCR = ['det', 'rec', 'cls']
# Larger conv shapes than the CPU microbenchmark's, so a GPU has work to do.
GPU_CONV_SHAPES = [
    ('3x3 256->256 @56', (256, 56, 56), 256, 3, 1, 1),
    ('3x3 64->64 @224', (64, 224, 224), 64, 3, 1, 1),
    ('1x1 1024->1024 @28', (1024, 28, 28), 1024, 1, 1, 1),
    ('1x1 256->1024 @56', (256, 56, 56), 1024, 1, 1, 1),
    ('depthwise 3x3 512 @112', (512, 112, 112), 512, 3, 1, 512),
]
# fp32 lanes per streaming multiprocessor by CUDA compute capability.
FP32_LANES_PER_SM = {(7, 0): 64, (7, 5): 64, (8, 0): 64, (8, 6): 128, (8, 7): 128, (8, 9): 128, (9, 0): 128,
                     (10, 0): 128, (12, 0): 128}


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self):
        return self.end - time.monotonic()


def log(message):
    sys.stderr.write('gpu_report: %s\n' % message)
    sys.stderr.flush()


def run(command, timeout, env=None):
    """(exit code, stdout, stderr, seconds); never raises. Exit code None: timed out or could not start."""
    start = time.monotonic()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=max(1, timeout), env=env)
        return done.returncode, done.stdout, done.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        err = e.stderr.decode(errors='replace') if isinstance(e.stderr, bytes) else (e.stderr or '')
        return None, out, err + '\n(timed out after %.0f s)' % timeout, time.monotonic() - start
    except OSError as e:
        return None, '', str(e), time.monotonic() - start


def run_json(command, timeout):
    code, out, err, _ = run(command, timeout)
    if code != 0:
        return None, (err.strip() or out.strip())[-600:]
    try:
        return json.loads(out), ''
    except ValueError as e:
        return None, 'not JSON: %s' % e


def device_facts(args):
    facts = {}
    info, error = run_json([args.glpool, 'info', '--json'], 60)
    facts['gl'] = info or {'error': error}
    code, out, _, _ = run(['nvidia-smi', '--query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total',
                           '--format=csv,noheader,nounits'], 30)
    if code == 0 and out.strip():
        name, driver, max_clock, clock, memory = [x.strip() for x in out.strip().splitlines()[0].split(',')]
        facts['nvidia_smi'] = {'name': name, 'driver': driver, 'max_sm_mhz': float(max_clock),
                               'sm_mhz': float(clock), 'memory_mib': float(memory)}
    if args.python:
        code, out, err, _ = run([args.python, '-c', 'import json, torch; p = torch.cuda.get_device_properties(0); '
                                 'print(json.dumps({"sms": p.multi_processor_count, "cc": [p.major, p.minor], '
                                 '"name": p.name, "torch": torch.__version__}))'], 120)
        if code == 0:
            facts['cuda'] = json.loads(out.strip().splitlines()[-1])
        else:
            facts['cuda_error'] = err.strip()[-300:]
    smi, cuda = facts.get('nvidia_smi'), facts.get('cuda')
    if smi and cuda:
        lanes = FP32_LANES_PER_SM.get(tuple(cuda['cc']))
        if lanes:
            facts['peak_gflops'] = cuda['sms'] * lanes * 2 * smi['max_sm_mhz'] / 1000.0
            facts['peak_how'] = ('%d SMs x %d fp32 lanes (compute capability %d.%d) x 2 FLOPs per FMA x %.0f MHz '
                                 '(nvidia-smi clocks.max.sm)' % (cuda['sms'], lanes, cuda['cc'][0], cuda['cc'][1],
                                                                 smi['max_sm_mhz']))
    return facts


def test_summary(text):
    m = re.search(r'(\d+) passed, (\d+) failed, (\d+) unsupported', text)
    return {'passed': int(m.group(1)), 'failed': int(m.group(2)), 'unsupported': int(m.group(3))} if m else None


def correctness(args, deadline, results, which):
    if which == 'models':
        cases = [os.path.join(args.shared, 'models', n) for n in SHARED
                 if os.path.isfile(os.path.join(args.shared, 'models', n, 'model.onnx'))]
        cases += [os.path.join(args.ppocr, n) for n in PPOCR if os.path.isdir(os.path.join(args.ppocr or '', n))]
        for objects in ('buffers', 'textures'):
            if not cases or deadline.left() < 30:
                continue
            code, out, err, seconds = run([args.glpool, 'test-onnx', '--backend', 'gpu', '--objects', objects] + cases,
                                          min(240, deadline.left()))
            results['correctness']['models_' + objects] = {
                'cases': [os.path.basename(c) for c in cases], 'summary': test_summary(out + err), 'exit': code,
                'seconds': seconds, 'tail': (out + err)[-1500:]}
            log('test-onnx %s: %s' % (objects, test_summary(out + err)))
    elif which == 'kernel_tests':
        if args.kernel_tests and deadline.left() > 30:
            code, out, err, seconds = run([args.kernel_tests, '--gtest_brief=1'], min(300, deadline.left()))
            passed = re.search(r'\[  PASSED  \] (\d+) test', out)
            failed = re.findall(r'\[  FAILED  \] (\S+\.\S+)', out)
            ran = re.search(r'\[==========\] (\d+) tests? from', out)
            results['correctness']['kernel_tests'] = {
                'ran': int(ran.group(1)) if ran else None, 'passed': int(passed.group(1)) if passed else None,
                'failed': sorted(set(failed)), 'exit': code, 'seconds': seconds, 'tail': (out + err)[-1500:]}
            log('kernel tests: exit %s, %s passed, %d failed' % (code, passed.group(1) if passed else '?',
                                                                  len(set(failed))))
    elif which == 'node_cases':
        if args.node_cases and deadline.left() > 30:
            code, out, err, seconds = run([args.glpool, 'test-onnx', '--backend', 'gpu', args.node_cases],
                                          min(300, deadline.left()))
            failed = re.findall(r'^FAIL\S*\s+(\S+)', out, re.M)
            results['correctness']['onnx_node_cases'] = {
                'summary': test_summary(out + err), 'exit': code, 'seconds': seconds, 'failed': failed[:40],
                'tail': (out + err)[-1500:]}
            log('ONNX node cases: %s' % test_summary(out + err))


def model_list(args):
    """[(label, path, extra glpool args, torchvision name or None, weights)]"""
    models = []
    for name in SHARED:
        path = os.path.join(args.shared, 'models', name, 'model.onnx')
        if os.path.isfile(path):
            pb = os.path.join(args.shared, 'models', name, 'test_data_set_0', 'input_0.pb')
            models.append((name, path, ['--input', pb], name if name in ZOO else None, 'real'))
    for name in PPOCR:
        folder = os.path.join(args.ppocr or '', name)
        if os.path.isfile(os.path.join(folder, 'model.onnx')):
            models.append(('ppocr_' + name, os.path.join(folder, 'model.onnx'),
                           ['--input', os.path.join(folder, 'test_data_set_0', 'input_0.pb')], None, 'real'))
    have = {m[0] for m in models}
    for name in ZOO:
        path = os.path.join(args.shared, 'zoo', name + '.onnx')
        if os.path.isfile(path) and name not in have:
            models.append((name + ' (zoo)', path, ['--random-weights'], name, 'random'))
    return models


def time_model(args, work, label, path, extra, deadline):
    cache = os.path.join(work, 'programs', re.sub(r'[^A-Za-z0-9_]', '_', label))
    os.makedirs(cache, exist_ok=True)
    base = [args.glpool, 'run', path, '--json', '--program-cache', cache] + extra
    row = {'model': label}
    # The first process compiles and fills the program cache; its profile
    # names the slowest tasks.
    profile, error = run_json(base + ['--repeat', '3', '--profile', '5'], min(300, deadline.left()))
    if profile is None:
        row['error'] = error
        return row
    row['tasks'] = profile.get('tasks')
    row['slowest'] = profile.get('slowest_tasks', [])
    row['gpu_tasks_ms'] = profile.get('gpu_tasks_ms')
    row['startup'] = profile.get('startup', {})
    runs = max(3, min(args.runs, int(args.budget_ms / max(profile['median_ms'], 0.05))))
    for key, more in (('pooled', []), ('naive', ['--memory-mode', 'naive']), ('textures', ['--objects', 'textures'])):
        if deadline.left() < 10:
            break
        result, error = run_json(base + more + ['--repeat', str(runs)], min(300, deadline.left()))
        if result is None:
            row[key + '_error'] = error
            continue
        memory = result.get('memory', {})
        row[key] = {'median_ms': result['median_ms'], 'first_ms': result['first_ms'], 'runs': runs,
                    'pool_bytes': memory.get('pool_bytes'), 'naive_bytes': memory.get('naive_bytes'),
                    'programs_loaded': result.get('startup', {}).get('programs_loaded')}
    return row


def conv_micro(args, work, deadline, shapes):
    from conv_micro import make_case  # onnx and numpy: only needed here
    rows = []
    for shape in shapes:
        if deadline.left() < 15:
            break
        folder = os.path.join(work, 'conv', re.sub(r'[^A-Za-z0-9]', '_', shape[0]))
        os.makedirs(folder, exist_ok=True)
        path, flops = make_case(folder, shape)
        row = {'shape': shape[0], 'flops': flops, 'spec': list(shape[1:])}
        for objects in ('buffers', 'textures'):
            command = [args.glpool, 'run', path, '--input', os.path.join(folder, 'x.pb'), '--json', '--objects',
                       objects, '--program-cache', os.path.join(folder, 'programs_' + objects), '--repeat', '3',
                       '--profile', '1']
            gpu_ms, wall_ms = [], []
            for _ in range(3):
                result, error = run_json(command, min(120, deadline.left()))
                if result is None:
                    row[objects + '_error'] = error
                    break
                task = result['slowest_tasks'][0]
                wall_ms.append(task['ms'])
                if 'gpu_ms' in task:
                    gpu_ms.append(task['gpu_ms'])
            if gpu_ms:
                row[objects + '_gpu_ms'] = statistics.median(gpu_ms)
            if wall_ms:
                row[objects + '_wall_ms'] = statistics.median(wall_ms)
        rows.append(row)
        log('conv %s: %s' % (shape[0], {k: v for k, v in row.items() if k.endswith('_ms')}))
    return rows


def torch_peer(args, work, results, deadline):
    if not args.python or deadline.left() < 40:
        return
    jobs = {'models': [], 'convs': []}
    for row in results['models']:
        if row.get('torchvision'):
            jobs['models'].append({'model': row['model'], 'arch': row['torchvision'], 'shape': row['input_shape']})
    for row in results['convs']:
        jobs['convs'].append({'shape': row['shape'], 'spec': row['spec']})
    job_file = os.path.join(work, 'torch_jobs.json')
    with open(job_file, 'w') as f:
        json.dump(jobs, f)
    code, out, err, _ = run([args.python, os.path.join(ROOT, 'bench', 'gpu', 'torch_peer.py'), job_file],
                            min(240, deadline.left()))
    if code != 0:
        results['torch_error'] = err.strip()[-800:]
        log('PyTorch peer failed: ' + results['torch_error'][-300:])
        return
    peer = json.loads(out.strip().splitlines()[-1])
    results['torch'] = peer


def input_shape(path):
    try:
        import onnx
        model = onnx.load(path, load_external_data=False)
        initializers = {t.name for t in model.graph.initializer}
        inputs = [i for i in model.graph.input if i.name not in initializers]
        return [d.dim_value for d in inputs[0].type.tensor_type.shape.dim]
    except Exception:  # the PyTorch column is then left out for this model
        return None


# profiles: only the slowest tasks again, for a rerun merged into earlier results.
STEPS = DEFAULT_STEPS + ['profiles']


def profile_models(args, work, results, deadline):
    """Only the slowest tasks and GPU task time of each model already timed,
    for a rerun that merges into earlier results."""
    paths = {label: (path, extra) for label, path, extra, _, _ in model_list(args)}
    for row in results['models']:
        if row['model'] not in paths or deadline.left() < 20:
            continue
        if args.models and row['model'].split(' ')[0] not in args.models.split(','):
            continue
        path, extra = paths[row['model']]
        profile, error = run_json([args.glpool, 'run', path, '--json', '--repeat', '3', '--profile', '5'] + extra,
                                  min(300, deadline.left()))
        if profile is None:
            row['profile_error'] = error
            continue
        row['slowest'] = profile.get('slowest_tasks', [])
        row['gpu_tasks_ms'] = profile.get('gpu_tasks_ms')
        row['task_ms_from_gpu'] = profile.get('task_ms_from_gpu')
        log('%s: GPU tasks %s ms' % (row['model'], row['gpu_tasks_ms']))


def collect(args):
    deadline = Deadline(args.deadline)
    work = args.work
    os.makedirs(work, exist_ok=True)
    steps = args.steps.split(',') if args.steps else DEFAULT_STEPS
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        raise SystemExit('gpu_report: unknown steps %s (known: %s)' % (unknown, ', '.join(STEPS)))
    if args.merge:
        with open(args.merge) as f:
            results = json.load(f)
    else:
        results = {'correctness': {}, 'models': [], 'convs': []}
    this_run = {'command': args.command_line, 'started': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                'steps': steps}
    results.setdefault('runs', []).append(this_run)

    def save():
        this_run['seconds'] = args.deadline - deadline.left()
        with open(args.raw, 'w') as f:
            json.dump(results, f, indent=1)

    if 'device' in steps or 'device' not in results:
        results['device'] = device_facts(args)
        log('device: %s' % results['device'].get('gl', {}).get('renderer'))
    save()
    if 'correctness' in steps:
        correctness(args, deadline, results, 'models')
        save()
    if 'models' in steps:
        results['models'] = []
        for label, path, extra, arch, weights in model_list(args):
            if args.models and label.split(' ')[0] not in args.models.split(','):
                continue
            if deadline.left() < 20:
                results.setdefault('skipped', []).append(label)
                continue
            row = time_model(args, work, label, path, extra, deadline)
            row['weights'] = weights
            if arch:
                row['torchvision'] = arch
                row['input_shape'] = input_shape(path)
            results['models'].append(row)
            log('%s: pooled %s ms, naive %s ms' % (label, row.get('pooled', {}).get('median_ms'),
                                                   row.get('naive', {}).get('median_ms')))
            save()
    if 'kernel_tests' in steps:
        correctness(args, deadline, results, 'kernel_tests')
        save()
    if 'convs' in steps:
        from conv_micro import SHAPES
        results['convs'] = conv_micro(args, work, deadline, SHAPES + GPU_CONV_SHAPES)
        save()
    if 'torch' in steps:
        torch_peer(args, work, results, deadline)
        save()
    if 'profiles' in steps:
        profile_models(args, work, results, deadline)
        save()
    if 'node_cases' in steps:
        correctness(args, deadline, results, 'node_cases')
        save()
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--glpool')
    parser.add_argument('--kernel-tests')
    parser.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    parser.add_argument('--ppocr', help='folder of the PP-OCR test cases (det, rec, cls) scripts/ppocr-cases.py makes')
    parser.add_argument('--node-cases', help='ONNX node test cases folder (libonnx-testdata data/node)')
    parser.add_argument('--python', help='a python3 with torch and torchvision for the PyTorch column')
    parser.add_argument('--work', default='/tmp/glpool_gpu_report')
    parser.add_argument('--raw', help='raw results JSON (default: beside the report)')
    parser.add_argument('--out', help='report file (default: bench/reports/gpu_<device>.md)')
    parser.add_argument('--out-dir', default=os.path.join(ROOT, 'bench', 'reports'))
    parser.add_argument('--models', help='comma-separated model labels to run (default: all)')
    parser.add_argument('--runs', type=int, default=30)
    parser.add_argument('--budget-ms', type=float, default=1500, help='per model and mode, for choosing N')
    parser.add_argument('--deadline', type=float, default=600, help='seconds for everything')
    parser.add_argument('--command-line', default='bash bench/gpu_report.sh')
    parser.add_argument('--render', help='only rewrite the report from this raw JSON')
    parser.add_argument('--steps', help='comma-separated steps to run (default: all but profiles): ' + ', '.join(STEPS))
    parser.add_argument('--merge', help='earlier raw JSON: keep its results, replace those of the steps run')
    args = parser.parse_args()
    if args.render:
        with open(args.render) as f:
            results = json.load(f)
    else:
        if not args.glpool:
            parser.error('--glpool is required unless --render is given')
        args.raw = args.raw or os.path.join(args.work, 'gpu_raw.json')
        results = collect(args)
    out = args.out or os.path.join(args.out_dir, 'gpu_%s.md' % device_slug(results))
    raw_copy = os.path.splitext(out)[0] + '.json'
    with open(out, 'w') as f:
        f.write(render(results, os.path.basename(raw_copy)))
    if not args.render:
        # The raw results beside the report, for --render and --merge.
        with open(raw_copy, 'w') as f:
            json.dump(results, f, indent=1)
    log('wrote ' + out)


if __name__ == '__main__':
    main()
