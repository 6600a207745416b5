import { OpenApiDoc, resolve, Schema } from '../support/openapi-schemas';
import {
  baseValue,
  BodyCase,
  BodyContext,
  bodyText,
  conforms,
  fieldPaths,
  HUGE,
  mutations,
  pathName,
  withValue,
} from './field-paths';

/**
 * The deterministic pass over multipart forms (uploads, submit-with-photo): a form carries files and text, so its
 * fields' "types" are a file part and a text part. Each field is sent as the other kind, as the text "null", as a
 * huge text and as text with a NUL byte; a text field that carries JSON (result_data, device_location) is also sent
 * with its JSON set to null, each wrong type, a deep array and so on, at every path inside it, as a JSON body's.
 */

export interface FilePart {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** A form as the parts of each field. */
export type Form = Record<string, (string | FilePart)[]>;

/**
 * The JSON inside text fields, which the reference can only describe in words (a form field is text): the schema
 * each one's JSON follows.
 */
export const JSON_TEXT: Record<string, Schema> = {
  result_data: { type: 'object', additionalProperties: true },
  device_location: { $ref: '#/components/schemas/DeviceLocationInput' },
};

function isFile(s: Schema): boolean {
  return s.format === 'binary' || (s.type === 'array' && s.items?.format === 'binary');
}

/** A valid form: `photo` in every file field, JSON text from its schema, other text from the field's schema. */
export function baseForm(doc: OpenApiDoc, schema: Schema, photo: FilePart, ctx: BodyContext): Form {
  const form: Form = {};
  for (const [name, raw] of Object.entries(resolve(doc, schema).properties ?? {})) {
    const s = resolve(doc, raw);
    if (isFile(s)) form[name] = [photo];
    else if (JSON_TEXT[name]) form[name] = [JSON.stringify(baseValue(doc, JSON_TEXT[name], name, ctx))];
    else form[name] = [String(baseValue(doc, s, name, ctx))];
  }
  return form;
}

export function formCases(doc: OpenApiDoc, schema: Schema, base: Form, photo: FilePart): BodyCase<Form>[] {
  const cases: BodyCase<Form>[] = [];
  const props = resolve(doc, schema).properties ?? {};
  for (const [name, raw] of Object.entries(props)) {
    const s = resolve(doc, raw);
    const json = JSON_TEXT[name];
    const set = (label: string, parts: (string | FilePart)[], refused: boolean, detail = name): void => {
      cases.push({ label, body: { ...base, [name]: parts }, refusedAs: refused ? detail : null });
    };
    if (isFile(s)) {
      set(`${name} as the text "null"`, ['null'], true);
      set(`${name} as a huge text`, [HUGE], true);
      continue;
    }
    set(`${name} as a file`, [photo], true);
    set(`${name} = "null"`, ['null'], !!json || !conforms(doc, s, 'null'));
    set(`${name} = a huge text`, [HUGE], true);
    set(`${name} = a NUL byte`, ['a\u0000b'], true);
    if (!json) continue;
    const jsonBase = JSON.parse(base[name][0] as string) as unknown;
    const root = { path: [], schema: resolve(doc, json), required: true, nullable: false };
    for (const field of [root, ...fieldPaths(doc, json)]) {
      for (const m of mutations(field)) {
        const value = withValue(jsonBase, field.path, m.value, jsonBase);
        const where = field.path.length ? `${name}.${pathName(field.path)}` : name;
        const refused = !conforms(doc, field.schema, m.value) && !(m.value === null && !field.required);
        set(`${where} = ${m.label} (JSON text)`, [bodyText(value)], refused, name);
      }
    }
  }
  return cases;
}
