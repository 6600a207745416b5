import { STATUS_CODES } from 'node:http';
import { ERROR_CODE_LIST, ErrorCode, ERRORS } from './error-catalog';
import { ERROR_FIELDS, ErrorField } from './error-fields';

/**
 * The error reference, built from the catalogue: docs/errors.md in the repository (written and drift-checked with
 * the OpenAPI document) and the same text as a page at /docs/errors.md, where the OpenAPI error descriptions link.
 * Blocks are rendered twice, as Markdown and as HTML, so both carry one anchor per code (`#task_full`).
 */
type Block =
  | { kind: 'h1' | 'h2' | 'p'; text: string }
  | { kind: 'h3'; id: string; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'code'; text: string };

const EXAMPLE = {
  error: {
    code: 'insufficient_balance',
    message: 'The available balance (1200 cents) does not cover the task (5000 cents).',
    request_id: '3f0c9a6e-5b1d-4f7a-9c2e-8d4b7a1e6f30',
    balance_cents: 1200,
    required_cents: 5000,
  },
};

function blocks(): Block[] {
  const out: Block[] = [
    { kind: 'h1', text: 'Errors' },
    {
      kind: 'p',
      text: 'Every error is JSON in one envelope, with the HTTP status given below for its code:',
    },
    { kind: 'code', text: JSON.stringify(EXAMPLE, null, 2) },
    {
      kind: 'list',
      items: [
        '`code` is stable and lower case: match on it. `message` is for people and may change.',
        '`request_id` is on every error and equals the `X-Request-ID` response header: quote it when reporting a problem.',
        'Context fields sit beside them; each code lists its own below. Ignore fields you do not know: new ones may be added.',
        'Each operation in the OpenAPI document lists, per status, the codes it answers with, linking here. Any operation may also answer `internal_error` and `service_unavailable`, and any authenticated one `rate_limit_exceeded`.',
        'A running service serves this reference at `/docs/errors.md`, next to the interactive API docs at `/docs`.',
      ],
    },
  ];
  for (const status of [...new Set(ERROR_CODE_LIST.map((c) => ERRORS[c].status))]) {
    out.push({ kind: 'h2', text: `${status} ${STATUS_CODES[status]}` });
    for (const code of ERROR_CODE_LIST.filter((c) => ERRORS[c].status === status)) out.push(...entry(code));
  }
  return out;
}

function entry(code: ErrorCode): Block[] {
  const spec: { summary: string; detail?: string; fields: readonly ErrorField[] } = ERRORS[code];
  const out: Block[] = [
    { kind: 'h3', id: code, text: `\`${code}\`` },
    { kind: 'p', text: spec.summary },
  ];
  if (spec.detail) out.push({ kind: 'p', text: spec.detail });
  if (spec.fields.length) out.push({ kind: 'list', items: spec.fields.map(fieldLine) });
  return out;
}

function fieldLine(field: ErrorField): string {
  const { schema, description } = ERROR_FIELDS[field];
  return `\`${field}\` (${typeName(schema)}): ${description}`;
}

/** A short name of a field's type: `integer`, `string or null`, `array of strings`. */
function typeName(schema: Readonly<Record<string, unknown>>): string {
  if (schema.oneOf) return (schema.oneOf as Record<string, unknown>[]).map(typeName).join(' or ');
  const items = schema.items as Record<string, unknown> | undefined;
  const base = items
    ? `array of ${items.type === 'object' ? 'objects' : `${typeName(items)}s`}`
    : String(schema.type);
  return schema.nullable ? `${base} or null` : base;
}

export function errorReferenceMarkdown(): string {
  const md = blocks().map((b) => {
    switch (b.kind) {
      case 'h1':
        return `# ${b.text}`;
      case 'h2':
        return `## ${b.text}`;
      case 'h3':
        return `### ${b.text}`;
      case 'p':
        return b.text;
      case 'list':
        return b.items.map((i) => `- ${i}`).join('\n');
      case 'code':
        return `\`\`\`json\n${b.text}\n\`\`\``;
    }
  });
  const generated =
    '<!-- Generated from src/common/errors/error-catalog.ts by `npm run openapi`: edit the catalogue, not this file. -->';
  return `${generated}\n\n${md.join('\n\n')}\n`;
}

export function errorReferenceHtml(): string {
  const html = blocks().map((b) => {
    switch (b.kind) {
      case 'h1':
      case 'h2':
      case 'p':
        return `<${b.kind}>${inline(b.text)}</${b.kind}>`;
      case 'h3':
        return `<h3 id="${b.id}">${inline(b.text)}</h3>`;
      case 'list':
        return `<ul>${b.items.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`;
      case 'code':
        return `<pre><code>${escape(b.text)}</code></pre>`;
    }
  });
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Legwork API errors</title>',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}',
    'code{background:#f3f3f3;padding:0 .2em;border-radius:3px}pre{background:#f3f3f3;padding:1rem;overflow:auto}',
    'h2{margin-top:2.5rem;border-bottom:1px solid #ddd}h3{margin-bottom:.25rem}h3:target{background:#fff6d5}</style>',
    `</head><body>${html.join('\n')}</body></html>`,
  ].join('\n');
}

/** Escapes text and turns `code` spans into <code>. */
function inline(text: string): string {
  return escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
