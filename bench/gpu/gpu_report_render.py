"""The markdown of bench/reports/gpu_<device>.md from gpu_report.py's raw
results (see that file for what each step measures)."""
import math
import re

DEFAULT_STEPS = ['device', 'correctness', 'models', 'kernel_tests', 'convs', 'torch', 'node_cases']


def fmt_ms(ms):
    if ms is None:
        return '-'
    return '%.3f ms' % ms if ms < 1 else '%.2f ms' % ms if ms < 100 else '%.0f ms' % ms


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def device_slug(results):
    renderer = results['device'].get('gl', {}).get('renderer') or 'unknown'
    name = renderer.split('/')[0]
    return re.sub(r'[^a-z0-9]+', '_', name.lower()).strip('_')


def render(results, raw_name):
    device = results['device']
    gl = device.get('gl', {})
    smi = device.get('nvidia_smi', {})
    peak = device.get('peak_gflops')
    runs = results.get('runs') or [{'command': results.get('command'), 'started': results.get('started'),
                                    'seconds': results.get('seconds', 0), 'steps': DEFAULT_STEPS}]
    made = '; then '.join('`%s%s` on %s (%.0f s; steps: %s)' % (
        r['command'], (' --steps %s --merge RAW' % ','.join(r['steps'])) if i else '', r['started'], r['seconds'],
        ', '.join(r['steps'])) for i, r in enumerate(runs))
    lines = ['# glpool on %s' % (gl.get('renderer') or 'an unknown GPU'), '',
             'Made by %s. GL: %s, %s, through %s%s.' % (
                 made, gl.get('gl_version'), gl.get('vendor'), gl.get('platform'),
                 (', driver %s' % smi['driver']) if smi.get('driver') else ''), '',
             'On a GPU machine without the build\'s dependencies, DIR is what `bash bench/gpu/bundle.sh DIR` made on '
             'the build machine. The raw results are in `%s`; `python3 bench/gpu/gpu_report.py --render %s` '
             'rewrites this report from them.' % (raw_name, 'bench/reports/' + raw_name), '']
    if peak:
        lines += ['fp32 peak: %s = **%.1f TFLOP/s** (FMA lanes only, no tensor cores).' % (device['peak_how'],
                                                                                      peak / 1000), '']
    lines += ['## Correctness on this driver', '', '| check | result | seconds |', '|---|---|---:|']
    c = results['correctness']
    for key in ('models_buffers', 'models_textures', 'onnx_node_cases'):
        if key in c:
            s = c[key]['summary']
            what = ('`glpool test-onnx --backend gpu --objects %s` on %s (ONNX Runtime\'s outputs)' % (
                key.split('_')[1], ', '.join(c[key]['cases'])) if key.startswith('models') else
                '`glpool test-onnx --backend gpu` on ONNX\'s node test cases')
            got = ('%d passed, %d failed, %d unsupported' % (s['passed'], s['failed'], s['unsupported'])
                   if s else 'no summary (exit %s)' % c[key]['exit'])
            lines.append('| %s | %s | %.0f |' % (what, got, c[key]['seconds']))
    if 'kernel_tests' in c:
        k = c['kernel_tests']
        lines.append('| kernel tests (each GPU kernel against the CPU reference) | %s of %s passed%s | %.0f |' % (
            k['passed'], k['ran'], ('; failed: ' + ', '.join(k['failed'])) if k['failed'] else '', k['seconds']))
    lines += ['', '## Models', '',
              'Each model in its own processes: one with `--profile 5` (it compiles into a program cache, which the '
              'others load), then `glpool run --repeat N` pooled (buffers, strategy auto), naive (one object per '
              'tensor) and pooled textures. ms: the median of N runs, each a whole `Run` from CPU memory to CPU '
              'memory (input upload, every task, output readback). *first*: the pooled process\'s first run. '
              '*Slowest tasks*: the last of the profile process\'s 3 runs, GPU time per task from timestamp queries '
              '(GL_EXT_disjoint_timer_query; no per-task waits once the first run has shown the timestamps see '
              'compute work). PyTorch: the torchvision model of the same architecture, eager, cuDNN, fp32 with '
              'TF32 off, batch 1, the input copied from and the output to CPU memory, median of 50 runs.', '',
              '*GPU tasks*: the profiled run\'s task times added up (from the timestamp before its first task '
              'to the one after its last). Where it is well above *pooled*, the profiled run itself ran slower than '
              'the unprofiled ones (see the note under the table).', '',
              '| model | weights | pooled | naive | pooled / naive | textures | first | GPU tasks | pool MB / naive MB | '
              'PyTorch | glpool / PyTorch | slowest tasks (GPU ms) |',
              '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|']
    torch_models = (results.get('torch') or {}).get('models', {})
    time_ratios, peer_ratios = [], []
    for row in results['models']:
        if 'error' in row:
            lines.append('| %s | %s | failed: %s ||||||||||' % (row['model'], row['weights'],
                                                               row['error'].replace('\n', ' ').replace('|', '/')[:200]))
            continue
        pooled, naive, tex = row.get('pooled', {}), row.get('naive', {}), row.get('textures', {})
        ratio = pooled['median_ms'] / naive['median_ms'] if pooled and naive else None
        if ratio:
            time_ratios.append(ratio)
        peer = torch_models.get(row['model'])
        peer_ratio = pooled['median_ms'] / peer if pooled and peer else None
        if peer_ratio:
            peer_ratios.append(peer_ratio)
        # Rows profiled by an earlier version of this bench: elapsed-time
        # queries around each dispatch, with a glFinish after every task.
        marker = '' if row.get('task_ms_from_gpu') or not row.get('slowest') else ' (older profile*)'
        slow = '; '.join('%s %s %s' % (t['op'], t['node'].split('/')[-2] if t['node'].count('/') > 1 else t['node'],
                                       fmt_ms(t.get('gpu_ms', t['ms'])) + ('' if 'gpu_ms' in t else ' wall'))
                         for t in row.get('slowest', [])[:3])
        memory = ('%.2f / %.2f' % (pooled['pool_bytes'] / 1e6, pooled['naive_bytes'] / 1e6)
                  if pooled.get('pool_bytes') else '-')
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            row['model'], row['weights'], fmt_ms(pooled.get('median_ms')), fmt_ms(naive.get('median_ms')),
            '%.3f' % ratio if ratio else '-', fmt_ms(tex.get('median_ms')), fmt_ms(pooled.get('first_ms')),
            fmt_ms(row.get('gpu_tasks_ms')), memory,
            fmt_ms(peer), '%.1fx' % peer_ratio if peer_ratio else '-', slow.replace('|', '/') + marker))
    lines.append('')
    if any(row.get('slowest') and not row.get('task_ms_from_gpu') for row in results['models']):
        lines += ['\\* Profiled by an earlier version of this bench (elapsed-time queries around each dispatch, a '
                  'glFinish after every task), which the later runs did not reach before their deadline.', '']
    if time_ratios:
        lines.append('Pooled / naive time, geometric mean over %d models: **%.3f** (min %.3f, max %.3f).' % (
            len(time_ratios), geomean(time_ratios), min(time_ratios), max(time_ratios)))
    if peer_ratios:
        lines.append('glpool / PyTorch, geometric mean over %d models: **%.1fx**.' % (len(peer_ratios),
                                                                                   geomean(peer_ratios)))
    slow_profiles = [(row['model'], row['gpu_tasks_ms'] / row['pooled']['median_ms']) for row in results['models']
                     if row.get('gpu_tasks_ms') and row.get('pooled')]
    if slow_profiles:
        worst = max(slow_profiles, key=lambda x: x[1])
        near = [m for m, r in slow_profiles if r <= 1.25]
        lines.append('GPU tasks / pooled run: %.2f to %.2f (%s the highest); within 1.25 on %d of %d models (%s).' % (
            min(r for _, r in slow_profiles), worst[1], worst[0], len(near), len(slow_profiles), ', '.join(near)))
    if results.get('torch_error'):
        lines.append('PyTorch peer failed: `%s`' % results['torch_error'][-200:].replace('\n', ' '))
    if results.get('skipped'):
        lines.append('Not run (the deadline came first): %s.' % ', '.join(results['skipped']))
    lines += ['', '## Conv throughput', '',
              'One Conv per model (bench/peer/conv_micro.py\'s cases: batch 1, fp32, pads k/2, bias). GPU ms: the '
              'conv task\'s timer-query time in the last of 3 runs, median over 3 processes. FLOPs = 2 x output '
              'elements x input channels per group x kernel taps. cuDNN: `torch.nn.functional.conv2d` on the same '
              'shape (fp32, TF32 off, cudnn.benchmark), CUDA events, median of 50.', '',
              '| shape | MFLOP | buffers ms | GFLOP/s | % of peak | textures ms | GFLOP/s | % of peak | cuDNN ms | '
              'GFLOP/s | % of peak |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    torch_convs = (results.get('torch') or {}).get('convs', {})

    def cells(ms, flops):
        if not ms:
            return ['-', '-', '-']
        g = flops / ms / 1e6
        return [fmt_ms(ms), '%.0f' % g, '%.2f%%' % (100 * g / peak) if peak else '-']

    wall_only = False
    for row in results['convs']:
        # Without timer queries that see compute work, the wall time around
        # the task (with a glFinish) stands in, marked below.
        buf = row.get('buffers_gpu_ms') or row.get('buffers_wall_ms')
        tex = row.get('textures_gpu_ms') or row.get('textures_wall_ms')
        wall_only = wall_only or 'buffers_gpu_ms' not in row
        lines.append('| %s | %.0f | %s |' % (row['shape'], row['flops'] / 1e6, ' | '.join(
            cells(buf, row['flops']) + cells(tex, row['flops']) + cells(torch_convs.get(row['shape']),
                                                                        row['flops']))))
    lines.append('')
    ratios = {objects: [row[objects + '_gpu_ms'] / torch_convs[row['shape']] for row in results['convs']
                        if row.get(objects + '_gpu_ms') and torch_convs.get(row['shape'])]
              for objects in ('buffers', 'textures')}
    for objects, values in ratios.items():
        if values:
            lines.append('glpool %s / cuDNN conv time, geometric mean over %d shapes: **%.1fx** (best %.2fx, worst '
                         '%.1fx).' % (objects, len(values), geomean(values), min(values), max(values)))
    lines.append('')
    if wall_only:
        lines += ['Where this driver\'s timer queries do not see compute work, the conv columns are the wall time '
                  'around the task with a glFinish after it, which includes the wait for the driver.', '']
    return '\n'.join(lines)
