import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];
type Grouped = Record<string, ValidationMetadata[]>;

const cached = new WeakSet<Storage>();

/**
 * Runtime trick: class-validator's lookup of a class's rules is kept instead of redone for every object it validates
 * (its metadata storage's lookup methods are replaced by caching ones).
 *
 * - Gain: task creation's API CPU per request about 5 % lower, 1.85 / 1.80 against 1.92 / 2.07 ms at 32
 *   connections in alternating runs (bench/results/before-after.md, "class-validator's lookups kept").
 * - Pinned by: validation-lookups.spec.ts (the same arrays kept, inherited rules, a class defined later clears
 *   them), and every e2e spec's validation errors, which go through it (createValidationPipe installs it).
 * - To remove: delete this file and its spec, and the `keepValidationLookups()` call in
 *   src/common/http/validation.pipe.ts.
 *
 * class-validator finds the rules of a class on each validate of each (nested) object: it walks every class that has
 * rules (56 in the API; an `instanceof` against each, for inherited rules), filters them, then groups them by
 * property, all allocated anew: 4 to 5 % of what task creation allocated. The rules of a class are fixed once it
 * is defined (its decorators add them then), so the lookups are kept per class; a rule added afterwards (a class
 * defined after the first validation) clears them all. Lookups with validation groups, which the API does not use,
 * or against a named schema are not kept.
 *
 * The kept arrays are class-validator's own results, which it only reads. Installs once per storage.
 */
export function keepValidationLookups(storage: Storage = getMetadataStorage()): void {
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  // By class, then by the `always` and `strictGroups` flags (the only other inputs of a lookup without groups).
  let byClass = new Map<object, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();
  const clear = (): void => {
    byClass = new Map();
    grouped = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema || (groups && groups.length > 0)) return lookup(target, schema, always, strictGroups, groups);
    const flags = `${always}:${strictGroups}`;
    let forClass = byClass.get(target);
    if (!forClass) {
      forClass = new Map<string, ValidationMetadata[]>();
      byClass.set(target, forClass);
    }
    let found = forClass.get(flags);
    if (!found) {
      found = lookup(target, schema, always, strictGroups, groups);
      forClass.set(flags, found);
    }
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) {
      found = group(metadata);
      grouped.set(metadata, found);
    }
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    clear();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    clear();
    addConstraint(metadata);
  };
}
