import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The layer order of src/ as a check (`npm run check:layers`, part of `npm run check`; docs/architecture.md,
 * "Layers"). Every folder of src/ has a layer; a folder imports only its own layer or lower ones, and no two folders
 * import each other, directly or round a loop, even within one layer (nor do two files, within a folder either).
 * Every import counts: `import type`, re-exports, `import()` and `require()`, in specs too.
 *
 * Unit specs (`*.spec.ts`) obey the layer of the folder they sit in, so a unit test never reaches up into code it
 * does not test; besides that they may use test tooling: `test/support` and the provider sandbox.
 */

/** Root files of src/ (main.ts, jobs.main.ts, app.module.ts...): they assemble the application. */
const APP = 'src/*.ts';

/** Lowest first. */
const LAYERS: readonly (readonly string[])[] = [
  ['config'],
  ['common', 'sandbox'],
  ['database'],
  ['observability'],
  ['audit', 'auth', 'escrow', 'events', 'idempotency', 'sms', 'upload'],
  ['agent', 'matching', 'worker'],
  ['payment', 'task'],
  ['admin', 'apps', 'health', 'jobs', 'mcp', 'notifications', 'openapi', 'simulation', 'stats'],
  [APP],
];

/**
 * Folders with a narrower rule than their layer. The sandbox simulates the payment providers beside the service
 * and is never loaded by it in live mode: it reads the shared sandbox credentials and nothing else of the service,
 * and only main.ts (which starts it in sandbox mode) and specs (which sign test notifications with it) load it.
 */
const NARROWER: Record<string, { imports: readonly string[]; importedBy: readonly string[] }> = {
  sandbox: { imports: ['config'], importedBy: [APP] },
};

/** Files outside src/ that src/ may import, and who may. */
const OUTSIDE: readonly { prefix: string; allowed: (from: Source) => boolean; rule: string }[] = [
  {
    prefix: 'migrations/',
    allowed: (from) => from.folder === 'database',
    rule: 'only src/database lists them',
  },
  { prefix: 'test/', allowed: (from) => from.spec, rule: 'only specs use test support' },
  {
    // The MCP tool catalogue is one package shared with the legwork-mcp stdio command, and the SDK it calls.
    prefix: 'packages/mcp/',
    allowed: (from) => from.folder === 'mcp',
    rule: 'only src/mcp serves the MCP tool catalogue',
  },
  { prefix: 'packages/sdk/', allowed: (from) => from.folder === 'mcp', rule: 'only src/mcp uses the SDK' },
];

interface Source {
  path: string;
  folder: string;
  spec: boolean;
}

interface Import {
  from: Source;
  line: number;
  specifier: string;
  target: string;
}

/** The repository: this runs compiled, from dist/scripts/. */
const ROOT = join(__dirname, '..', '..');
const UNRESOLVED = '(unresolved) ';

function main(): void {
  const options = compilerOptions();
  const cache = ts.createModuleResolutionCache(ROOT, (f) => f, options);
  const files = sourceFiles();
  const imports = files.flatMap((file) => importsOf(file, options, cache));
  const problems = [
    ...checkTable(),
    ...imports.flatMap(checkImport),
    ...cycles(imports),
    ...fileCycles(imports),
  ];
  if (problems.length === 0) {
    console.log(
      `check-layers: ${imports.length} imports in ${files.length} files of src/ keep to the layers`,
    );
    return;
  }
  console.error(`check-layers: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
  for (const p of problems) console.error(`${p}\n`);
  console.error(`Layers, lowest first (scripts/check-layers.ts):\n${LAYERS.map(describeLayer).join('\n')}`);
  process.exitCode = 1;
}

function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(file, (p) => ts.sys.readFile(p));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT, undefined, file).options;
}

function sourceFiles(): Source[] {
  const paths = ts.sys.readDirectory(join(ROOT, 'src'), ['.ts']);
  return paths
    .map((p) => source(relative(ROOT, p).split(sep).join('/')))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

function source(path: string): Source {
  const parts = path.split('/');
  return { path, folder: parts.length === 2 ? APP : parts[1], spec: path.endsWith('.spec.ts') };
}

/** Every module specifier in the file, resolved as the compiler resolves it; package imports are dropped. */
function importsOf(from: Source, options: ts.CompilerOptions, cache: ts.ModuleResolutionCache): Import[] {
  const fileName = join(ROOT, from.path);
  const impliedNodeFormat = ts.getImpliedNodeFormatForFile(fileName, undefined, ts.sys, options);
  const sf = ts.createSourceFile(
    fileName,
    ts.sys.readFile(fileName) ?? '',
    { languageVersion: ts.ScriptTarget.Latest, impliedNodeFormat },
    true,
  );
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    const literal = moduleSpecifier(node);
    const target = literal && resolve(sf, literal, options, cache);
    if (literal && target) {
      const line = sf.getLineAndCharacterOfPosition(literal.getStart(sf)).line + 1;
      found.push({ from, line, specifier: literal.text, target });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The imported file relative to the repository, or null for a package. */
function resolve(
  sf: ts.SourceFile,
  literal: ts.StringLiteralLike,
  options: ts.CompilerOptions,
  cache: ts.ModuleResolutionCache,
): string | null {
  const mode = ts.getModeForUsageLocation(sf, literal, options);
  const { resolvedModule } = ts.resolveModuleName(
    literal.text,
    sf.fileName,
    options,
    ts.sys,
    cache,
    undefined,
    mode,
  );
  if (!resolvedModule) return literal.text.startsWith('.') ? `${UNRESOLVED}${literal.text}` : null;
  if (resolvedModule.isExternalLibraryImport) return null;
  return relative(ROOT, resolvedModule.resolvedFileName).split(sep).join('/');
}

function moduleSpecifier(node: ts.Node): ts.StringLiteralLike | undefined {
  let spec: ts.Node | undefined;
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = node.moduleSpecifier;
  else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    spec = node.moduleReference.expression;
  } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
  else if (ts.isCallExpression(node) && isImportOrRequire(node.expression)) spec = node.arguments[0];
  return spec && ts.isStringLiteralLike(spec) ? spec : undefined;
}

function isImportOrRequire(callee: ts.Expression): boolean {
  return (
    callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')
  );
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

function describeLayer(layer: readonly string[], index: number): string {
  return `  ${index}: ${layer.join(', ')}`;
}

function layerName(folder: string): string {
  const index = layerOf(folder);
  return `${folder} (layer ${index}: ${LAYERS[index].join(', ')})`;
}

/** Every folder of src/ has exactly one layer, and the table names no folder that is gone. */
function checkTable(): string[] {
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const listed = LAYERS.flat().filter((f) => f !== APP);
  return [
    ...folders.filter((f) => !listed.includes(f)).map((f) => `src/${f} has no layer: add it to LAYERS.`),
    ...listed
      .filter((f) => !folders.includes(f))
      .map((f) => `LAYERS names ${f}, which is not a folder of src/.`),
    ...listed.filter((f, i) => listed.indexOf(f) !== i).map((f) => `LAYERS names ${f} twice.`),
  ];
}

function where(i: Import): string {
  return `${i.from.path}:${i.line}  import '${i.specifier}'`;
}

function checkImport(i: Import): string[] {
  if (i.target.startsWith(UNRESOLVED)) return [`${where(i)}\n  cannot be resolved.`];
  if (!i.target.startsWith('src/')) {
    const rule = OUTSIDE.find((o) => i.target.startsWith(o.prefix));
    if (rule?.allowed(i.from)) return [];
    return [
      `${where(i)}\n  reaches ${i.target} outside src/: ${rule ? rule.rule : 'src/ imports only src/ and packages'}.`,
    ];
  }
  const to = source(i.target).folder;
  const from = i.from.folder;
  // A folder without a layer is reported once by checkTable.
  if (from === to || layerOf(from) < 0 || layerOf(to) < 0) return [];
  const narrowFrom = NARROWER[from];
  if (narrowFrom && !narrowFrom.imports.includes(to)) {
    return [`${where(i)}\n  ${from} may import only ${narrowFrom.imports.join(', ')}.`];
  }
  const narrowTo = NARROWER[to];
  if (narrowTo && !i.from.spec && !narrowTo.importedBy.includes(from)) {
    return [
      `${where(i)}\n  ${to} is loaded only by ${narrowTo.importedBy.join(', ')} and specs, not by ${from}.`,
    ];
  }
  if (layerOf(to) > layerOf(from)) {
    return [
      `${where(i)}\n  ${layerName(from)} may not import ${layerName(to)}: a folder imports only its own layer or lower ones.`,
    ];
  }
  return [];
}

/** Folder-level cycles (strongly connected components of more than one folder), with one import per edge. */
function cycles(imports: Import[]): string[] {
  return loops(imports, (path) => source(path).folder, 'Folders');
}

/**
 * Files that import each other, directly or round a loop, within a folder too (config.ts and payment-config.ts
 * once did): Node loads such a loop half-initialised, and neither file can be read without the other. The shared
 * piece belongs in a file of its own.
 */
function fileCycles(imports: Import[]): string[] {
  return loops(imports, (path) => path, 'Files');
}

/** The loops among the nodes that `node` maps files of src/ to, each with one import per edge inside it. */
function loops(imports: Import[], node: (path: string) => string, what: string): string[] {
  const edges = new Map<string, Map<string, Import>>();
  for (const i of imports) {
    if (!i.target.startsWith('src/')) continue;
    const [from, to] = [node(i.from.path), node(i.target)];
    if (to === from) continue;
    const out = edges.get(from) ?? new Map<string, Import>();
    if (!out.has(to)) out.set(to, i);
    edges.set(from, out);
  }
  return components(edges)
    .filter((c) => c.length > 1)
    .map((c) => {
      const inside = c.flatMap((f) =>
        [...(edges.get(f) ?? new Map<string, Import>())].filter(([to]) => c.includes(to)),
      );
      return `${what} import each other: ${c.join(', ')}\n${inside.map(([, i]) => `  ${where(i)}`).join('\n')}`;
    });
}

/** Tarjan's strongly connected components. */
function components(edges: Map<string, Map<string, Import>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const result: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of (edges.get(v) ?? new Map<string, Import>()).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        component.push(w);
        if (w === v) break;
      }
      result.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return result;
}

main();
