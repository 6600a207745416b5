import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventSchemaName } from '../../src/openapi/event-schemas';

type Json = Record<string, unknown>;

/**
 * OpenAPI 3.0 schema to JSON Schema, strictly: `nullable` becomes a null type, and an object with declared
 * properties admits no others, so an event field nobody documented fails. (The document itself leaves objects
 * open: receivers must tolerate new fields; this strictness is only for proving the schemas complete.)
 */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'example' || k === 'discriminator' || k === 'nullable') continue;
    out[k] = strict(v);
  }
  const s = node as Json;
  if (s.properties && s.additionalProperties === undefined) out.additionalProperties = false;
  if (typeof out.$ref === 'string') out.$ref = out.$ref.replace('#/components/schemas/', '#/$defs/');
  // A nullable reference (`allOf: [{$ref}]` with `nullable`, as @nestjs/swagger writes it): the reference or null.
  if (s.nullable === true && Array.isArray(s.allOf)) return { anyOf: [out, { type: 'null' }] };
  if (s.nullable === true && typeof s.type === 'string') out.type = [s.type, 'null'];
  return out;
}

let defs: Json | null = null;
let ajv: Ajv | null = null;
const validators = new Map<string, ValidateFunction>();

/** The validator of one schema of the committed openapi/openapi.json (the drift check keeps it current). */
function validatorFor(name: string): ValidateFunction {
  if (!defs || !ajv) {
    const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as {
      components: { schemas: Json };
    };
    defs = strict(doc.components.schemas) as Json;
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat('date-time', (v: string) => /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v)));
  }
  if (!defs[name]) throw new Error(`no schema ${name} in openapi/openapi.json`);
  let v = validators.get(name);
  if (!v) {
    // Only the schemas an event reaches are compiled (the rest of the document is never touched).
    v = ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` });
    validators.set(name, v);
  }
  return v;
}

/**
 * Where a delivered event departs from the schema of its name (and from the union it belongs to): [] when it is
 * exactly as documented.
 */
export function eventSchemaProblems(
  payload: unknown,
  union: 'WebhookEvent' | 'WorkerEvent' = 'WebhookEvent',
): string[] {
  const name = (payload as { event?: unknown } | null)?.event;
  if (typeof name !== 'string') return ['event: missing'];
  const problems: string[] = [];
  for (const schema of [eventSchemaName(name), union]) {
    const validate = validatorFor(schema);
    if (!validate(payload)) {
      problems.push(...(validate.errors ?? []).map((e) => `${schema}${e.instancePath} ${e.message ?? ''}`));
    }
  }
  return problems;
}
