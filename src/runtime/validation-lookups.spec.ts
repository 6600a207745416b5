import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { keepValidationLookups } from './validation-lookups';

describe('keepValidationLookups', () => {
  const storage = getMetadataStorage();
  keepValidationLookups();

  class Base {
    @IsInt()
    count!: unknown;
  }

  const lookup = (target: new () => object) => storage.getTargetValidationMetadatas(target, '', false, false);

  it('keeps a class lookup and its grouping: the same arrays on every call', () => {
    const first = lookup(Base);
    expect(first.map((m) => m.propertyName)).toEqual(['count']);
    expect(lookup(Base)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
  });

  it('validates as before, inherited rules included', async () => {
    class Child extends Base {
      @IsString()
      name!: unknown;
    }
    const errors = async (o: object) => (await validate(o)).map((e) => e.property).sort();
    expect(await errors(Object.assign(new Child(), { count: 'x', name: 1 }))).toEqual(['count', 'name']);
    expect(await errors(Object.assign(new Child(), { count: 2, name: 'a' }))).toEqual([]);
    expect(await errors(Object.assign(new Base(), { count: 'x' }))).toEqual(['count']);
  });

  it('a class defined after a lookup clears the kept lookups, so a subclass gets its new rules', async () => {
    const before = lookup(Base);
    class Later extends Base {
      @IsString()
      label!: unknown;
    }
    expect(lookup(Base)).not.toBe(before);
    expect(lookup(Base).map((m) => m.propertyName)).toEqual(['count']);
    expect(
      lookup(Later)
        .map((m) => m.propertyName)
        .sort(),
    ).toEqual(['count', 'label']);
    expect(
      (await validate(Object.assign(new Later(), { count: 1, label: 2 }))).map((e) => e.property),
    ).toEqual(['label']);
  });

  it('installs once: a second call does not wrap the lookups again', () => {
    const wrapped = storage.getTargetValidationMetadatas;
    keepValidationLookups();
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});
