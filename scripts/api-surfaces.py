#!/usr/bin/env python3
"""Writes docs/api-surfaces.md from openapi/openapi.json: every operation, grouped by area, with its handler.

A /v1 route and its /api/v1 namesake share a row only when the same handler serves both (their operationIds differ
by the `_api` suffix alone); where the reference form has its own handler (its own body or credentials) each gets
its own row, so the table never shows two operations as one.
"""
import json
import re
from pathlib import Path

root = Path(__file__).resolve().parent.parent
doc = json.loads((root / 'openapi' / 'openapi.json').read_text())
ops = {}
for path, item in doc['paths'].items():
    for method, op in item.items():
        if method in ('get', 'post', 'put', 'patch', 'delete'):
            ops[(method.upper(), path)] = op

# Matched against the path without its /v1 or /api/v1 prefix, first prefix wins: the more specific ones come first
# (a worker's /worker/tasks route is a worker task, not an agent task).
AREAS = [('/sandbox', 'Sandbox (sandbox mode only)'), ('/admin', 'Operators'), ('/agent/api-keys', 'Agent API key'), ('/agent/stats', 'Statistics'),
         ('/agent/transactions', 'Transactions'), ('/agent/webhooks', 'Events'), ('/agent/events', 'Events'),
         ('/agent/payments', 'Payments'), ('/agent', 'Agent account'), ('/tasks', 'Agent tasks'),
         ('/worker/tasks', 'Worker tasks'), ('/worker/assignments', 'Worker tasks'),
         ('/worker/availability', 'Matching'), ('/worker/balance', 'Worker money'),
         ('/worker/earnings', 'Worker money'), ('/worker', 'Worker account'), ('/upload', 'Uploads'),
         ('/payment/alipay', 'Payment callbacks'), ('/payment', 'Payments'), ('/webhooks', 'Payment callbacks'),
         ('/api/webhooks', 'Payment callbacks'), ('/ws', 'Events')]
ORDER = ['System', 'Agent account', 'Agent API key', 'Agent tasks', 'Transactions', 'Statistics', 'Payments',
         'Payment callbacks', 'Worker account', 'Worker tasks', 'Matching', 'Uploads', 'Worker money', 'Events',
         'Operators', 'Sandbox (sandbox mode only)']


def bare(path):
    return re.sub(r'^/(api/)?v1(?=/)', '', path)


def area(path):
    rest = bare(path)
    return next((name for key, name in AREAS if rest == key or rest.startswith(key + '/')), 'System')


def handler(op):
    """`AgentTasks_list_api` -> `AgentTasksController.list` (Nest's operationId is controller, method)."""
    op_id = re.sub(r'_api$', '', op.get('operationId', ''))
    controller, _, method = op_id.partition('_')
    return f'{controller}Controller.{method}' if method else op_id


rows, seen = [], set()
for (method, path), op in sorted(ops.items(), key=lambda x: (bare(x[0][1]), x[0][1].startswith('/api/'), x[0][0])):
    if (method, path) in seen:
        continue
    twin = '/api' + path if path.startswith('/v1/') else None
    if twin and (method, twin) in ops and handler(ops[(method, twin)]) == handler(op):
        seen.add((method, twin))
        where = f'`{path}` and `{twin}`'
    else:
        where = f'`{path}`'
    rows.append((area(path), method, where, f'`{handler(op)}`', op.get('summary', '').replace('|', '/')))

out = ['# API surfaces', '',
       'Every operation the service serves, grouped by area, with the controller method that handles it. Generated',
       'from [`openapi/openapi.json`](../openapi/openapi.json) by `python3 scripts/api-surfaces.py`; the route-table',
       'test (`test/system/routes.e2e-spec.ts`) asserts the same set.', '',
       'Where the spec gives one operation on both forms, one handler serves `/v1` and `/api/v1` and the two share a',
       'row. Where the reference form differs in verb, path, body or credentials (task create and cancel, the',
       'reference payment endpoints with `X-API-Secret`) it has its own handler over the same service, and its own row.',
       '',
       'Besides these, `/mcp` (`POST`, and `GET` / `DELETE` answered 405) is the MCP server for LLM agents',
       '(`McpController`, [mcp.md](mcp.md)): a protocol endpoint, not a REST operation, so it is not in the OpenAPI',
       'document; the route table lists it.',
       '']
for name in ORDER + sorted({r[0] for r in rows} - set(ORDER)):
    group = [r for r in rows if r[0] == name]
    if not group:
        continue
    out += [f'## {name}', '', '| Method | Path | Handler | What it does |', '|---|---|---|---|']
    out += [f'| {m} | {p} | {h} | {s} |' for _, m, p, h, s in group]
    out.append('')
(root / 'docs' / 'api-surfaces.md').write_text('\n'.join(out))
print(f'{len(ops)} operations, {len(rows)} rows')
