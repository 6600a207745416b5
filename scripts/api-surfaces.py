#!/usr/bin/env python3
"""Writes docs/api-surfaces.md from openapi/openapi.json: every operation, grouped by area, pairing /v1 and /api/v1."""
import json
from pathlib import Path

root = Path(__file__).resolve().parent.parent
doc = json.loads((root / 'openapi' / 'openapi.json').read_text())
ops = {}
for path, item in doc['paths'].items():
    for method, op in item.items():
        if method in ('get', 'post', 'put', 'patch', 'delete'):
            ops[(method.upper(), path)] = op

AREAS = [('/sandbox/', 'Sandbox (sandbox mode only)'), ('/admin', 'Operators'), ('/agent/api-keys', 'Agent API key'), ('/agent/stats', 'Statistics'),
         ('/agent/transactions', 'Transactions'), ('/agent/webhooks', 'Events'), ('/agent/events', 'Events'),
         ('/agent/payments', 'Payments'), ('/agent', 'Agent account'), ('/tasks', 'Agent tasks'),
         ('/worker/tasks', 'Worker tasks'), ('/worker/assignments', 'Worker tasks'),
         ('/worker/availability', 'Matching'), ('/worker/balance', 'Worker money'),
         ('/worker/earnings', 'Worker money'), ('/worker', 'Worker account'), ('/upload', 'Uploads'),
         ('/payment', 'Payments'), ('/webhooks', 'Payment callbacks'), ('/ws', 'Events')]
ORDER = ['System', 'Agent account', 'Agent API key', 'Agent tasks', 'Transactions', 'Statistics', 'Payments',
         'Payment callbacks', 'Worker account', 'Worker tasks', 'Matching', 'Uploads', 'Worker money', 'Events',
         'Operators', 'Sandbox (sandbox mode only)']


def area(path):
    return next((name for key, name in AREAS if key in path), 'System')


rows, seen = [], set()
for (method, path), op in sorted(ops.items(), key=lambda x: (x[0][1].replace('/api/v1/', '/v1/'),
                                                            x[0][1].startswith('/api/'), x[0][0])):
    if (method, path) in seen:
        continue
    twin = '/api' + path if path.startswith('/v1/') else None
    if twin and (method, twin) in ops:
        seen.add((method, twin))
        where = f'`{path}` and `{twin}`'
    else:
        where = f'`{path}`'
    rows.append((area(path), method, where, op.get('summary', '').replace('|', '/')))

out = ['# API surfaces', '',
       'Every operation the service serves, grouped by area. Generated from [`openapi/openapi.json`](../openapi/openapi.json)',
       'by `python3 scripts/api-surfaces.py`; the route-table test (`test/system/routes.e2e-spec.ts`) asserts the same set.',
       'Where the spec gives one operation on both forms it is served on `/v1` and `/api/v1` by the same handler; where',
       'the reference form differs in verb, path or body (task create and cancel, the reference payment endpoints with',
       '`X-API-Secret`) it has its own route over the same service.', '']
for name in ORDER + sorted({r[0] for r in rows} - set(ORDER)):
    group = [r for r in rows if r[0] == name]
    if not group:
        continue
    out += [f'## {name}', '', '| Method | Path | What it does |', '|---|---|---|']
    out += [f'| {m} | {p} | {s} |' for _, m, p, s in group]
    out.append('')
(root / 'docs' / 'api-surfaces.md').write_text('\n'.join(out))
print(f'{len(ops)} operations, {len(rows)} rows')
