import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The layer order of src/ as a check (`npm run check:layers`, part of `npm run check`; docs/architecture.md,
 * "Layers"), and the boundaries of the apps (web/) and the packages (packages/) beside it (BESIDE, below). Every folder of src/ has a layer; a folder imports only its own layer or lower ones, and no two folders
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
  ['config', 'runtime'],
  ['common', 'sandbox'],
  ['database'],
  ['observability'],
  ['audit', 'auth', 'escrow', 'events', 'idempotency', 'sms', 'upload'],
  ['agent', 'matching', 'oauth', 'worker'],
  ['disputes', 'messages', 'payment', 'task'],
  ['admin', 'apps', 'health', 'jobs', 'mcp', 'notifications', 'openapi', 'simulation', 'stats'],
  [APP],
];

/**
 * Folders with a narrower rule than their layer. The runtime tricks (src/runtime, docs/scaling.md "Runtime tricks")
 * change what the libraries and V8 do, for speed: they import nothing of the service, and only the folders they are
 * plugged into load them. The sandbox simulates the payment providers beside the service and is never loaded by it
 * in live mode: it reads the shared sandbox credentials and nothing else of the service, and only main.ts (which
 * starts it in sandbox mode) and specs (which sign test notifications with it) load it.
 */
const NARROWER: Record<string, { imports: readonly string[]; importedBy: readonly string[] }> = {
  runtime: { imports: [], importedBy: ['common', 'database', 'idempotency', APP] },
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

/**
 * The code beside src/: the apps in web/ and the workspaces in packages/. Each part lists what of the repository it
 * may import (path prefixes; itself included); anything else of the repository is refused, and packages from
 * node_modules are not looked at. No two files of a part import each other, directly or round a loop.
 * - The worker app and the agent console never import each other: what both need is in web/shared, which imports
 *   neither. The apps use the SDK's generated types (`@legwork/sdk/types`), never the API's code (src/) or the MCP.
 * - The SDK stands alone; the MCP tool catalogue calls the API through the SDK only. Neither reaches into src/ or
 *   web/: they are published on their own, and src/mcp imports them, not the other way round.
 */
const BESIDE: readonly { prefix: string; name: string; imports: readonly string[]; tsconfig: string }[] = [
  {
    prefix: 'web/app/',
    name: 'the worker app',
    imports: ['web/app/', 'web/shared/', 'packages/sdk/src/'],
    tsconfig: 'web/tsconfig.json',
  },
  {
    prefix: 'web/console/',
    name: 'the agent console',
    imports: ['web/console/', 'web/shared/', 'packages/sdk/src/'],
    tsconfig: 'web/tsconfig.json',
  },
  {
    prefix: 'web/shared/',
    name: "the apps' shared code",
    imports: ['web/shared/', 'packages/sdk/src/'],
    tsconfig: 'web/tsconfig.json',
  },
  // web/*.ts: the build's configuration and its Vite plugins.
  { prefix: 'web/', name: "the apps' build", imports: ['web/'], tsconfig: 'web/tsconfig.json' },
  { prefix: 'packages/sdk/', name: 'the SDK', imports: ['packages/sdk/'], tsconfig: 'tsconfig.json' },
  {
    prefix: 'packages/mcp/',
    name: 'the MCP tool catalogue',
    imports: ['packages/mcp/', 'packages/sdk/'],
    tsconfig: 'tsconfig.json',
  },
];

/** Where the code of BESIDE is: TypeScript sources below these folders (node_modules, dist and generated builds left out). */
const BESIDE_ROOTS = ['web/app', 'web/console', 'web/shared', 'packages/sdk/src', 'packages/mcp/src'];

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
  const options = compilerOptions('tsconfig.json');
  const cache = ts.createModuleResolutionCache(ROOT, (f) => f, options);
  const files = sourceFiles();
  const imports = files.flatMap((file) => importsOf(file, options, cache));
  const beside = besideFiles();
  const besideImports = besideImportsOf(beside);
  const problems = [
    ...checkTable(),
    ...imports.flatMap(checkImport),
    ...cycles(imports),
    ...fileCycles(imports),
    ...besideImports.flatMap(checkBeside),
    ...loops(besideImports, (path) => path, 'Files', isBeside),
  ];
  if (problems.length === 0) {
    console.log(
      `check-layers: ${imports.length} imports in ${files.length} files of src/ keep to the layers; ` +
        `${besideImports.length} imports in ${beside.length} files of web/ and packages/ keep to their parts`,
    );
    return;
  }
  console.error(`check-layers: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
  for (const p of problems) console.error(`${p}\n`);
  console.error(`Layers, lowest first (scripts/check-layers.ts):\n${LAYERS.map(describeLayer).join('\n')}`);
  console.error(`Beside src/ (scripts/check-layers.ts, BESIDE):\n${BESIDE.map(describePart).join('\n')}`);
  process.exitCode = 1;
}

function compilerOptions(tsconfig: string): ts.CompilerOptions {
  const file = join(ROOT, tsconfig);
  const config = ts.readConfigFile(file, (p) => ts.sys.readFile(p));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(file), undefined, file).options;
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
  if (!resolvedModule) return literal.text.startsWith('.') ? asset(sf.fileName, literal.text) : null;
  const path = relative(ROOT, resolvedModule.resolvedFileName).split(sep).join('/');
  // A package of node_modules is not ours; a workspace reached by its package name (a symlink the compiler
  // resolved to the real path) is.
  if (resolvedModule.isExternalLibraryImport && (path.startsWith('..') || path.includes('node_modules/'))) {
    return null;
  }
  return path;
}

/** A relative import the compiler does not resolve: a file that is not code (a stylesheet), or a mistake. */
function asset(fromFile: string, specifier: string): string {
  const file = join(dirname(fromFile), specifier.split('?')[0]);
  return existsSync(file) ? relative(ROOT, file).split(sep).join('/') : `${UNRESOLVED}${specifier}`;
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
    const allowed =
      narrowFrom.imports.length > 0 ? `only ${narrowFrom.imports.join(', ')}` : 'no other folder';
    return [`${where(i)}\n  ${from} may import ${allowed}.`];
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

/** The loops among the nodes that `node` maps files of src/ (or `within`) to, each with one import per edge inside it. */
function loops(
  imports: Import[],
  node: (path: string) => string,
  what: string,
  within: (path: string) => boolean = (path) => path.startsWith('src/'),
): string[] {
  const edges = new Map<string, Map<string, Import>>();
  for (const i of imports) {
    if (!within(i.target)) continue;
    const [from, to] = [node(i.from.path), node(i.target)];
    if (to === from) continue;
    const out = edges.get(from) ?? new Map<string, Import>();
    if (!out.has(to)) out.set(to, i);
    edges.set(from, out);
  }
  return components(edges)
    .filter((c) => c.length > 1)
    .map((c) => {
      const loop = shortestLoop(c, edges);
      const more = c.length - loop.length;
      return (
        `${what} import each other: ${c.length > 6 ? `${c.length} of them, ${c[0]} among them` : c.join(', ')}\n` +
        `  one loop: ${[...loop.map((i) => node(i.from.path)), node(loop[0].from.path)].join(' -> ')}\n` +
        `${loop.map((i) => `  ${where(i)}`).join('\n')}` +
        (more > 0 ? `\n  (${more} more in the same knot: break this loop, then run the check again)` : '')
      );
    });
}

/** The shortest way round from the component's first node back to it, as the imports along it (breadth first). */
function shortestLoop(component: string[], edges: Map<string, Map<string, Import>>): Import[] {
  const start = component[0];
  const reachedBy = new Map<string, { from: string; i: Import }>();
  const queue = [start];
  for (let k = 0; k < queue.length && !reachedBy.has(start); k++) {
    for (const [to, i] of edges.get(queue[k]) ?? new Map<string, Import>()) {
      if (!component.includes(to) || reachedBy.has(to)) continue;
      reachedBy.set(to, { from: queue[k], i });
      queue.push(to);
    }
  }
  const loop: Import[] = [];
  for (let at = start; loop.length === 0 || at !== start;) {
    const step = reachedBy.get(at)!;
    loop.unshift(step.i);
    at = step.from;
  }
  return loop;
}

/** The part of BESIDE a file belongs to, or undefined for a file outside web/ and packages/. */
function partOf(path: string): (typeof BESIDE)[number] | undefined {
  return BESIDE.find((p) => path.startsWith(p.prefix));
}

function isBeside(path: string): boolean {
  return partOf(path) !== undefined;
}

function describePart(part: (typeof BESIDE)[number]): string {
  return `  ${part.prefix} (${part.name}) imports ${part.imports.join(', ')}`;
}

/** The TypeScript files of BESIDE_ROOTS, and web/*.ts (the build's configuration). */
function besideFiles(): Source[] {
  const below = BESIDE_ROOTS.flatMap((root) =>
    ts.sys.readDirectory(join(ROOT, root), ['.ts', '.tsx'], ['**/node_modules', '**/dist']),
  );
  const webRoot = readdirSync(join(ROOT, 'web'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, 'web', f));
  return [...below, ...webRoot]
    .map((p) => relative(ROOT, p).split(sep).join('/'))
    .map((path) => ({ path, folder: partOf(path)!.prefix, spec: /\.(spec|test)\.tsx?$/.test(path) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Their imports, each part resolved with the compiler options it is built with. */
function besideImportsOf(files: Source[]): Import[] {
  const resolvers = new Map<string, { options: ts.CompilerOptions; cache: ts.ModuleResolutionCache }>();
  return files.flatMap((file) => {
    const tsconfig = partOf(file.path)!.tsconfig;
    let r = resolvers.get(tsconfig);
    if (!r) {
      const options = compilerOptions(tsconfig);
      r = { options, cache: ts.createModuleResolutionCache(ROOT, (f) => f, options) };
      resolvers.set(tsconfig, r);
    }
    return importsOf(file, r.options, r.cache);
  });
}

function checkBeside(i: Import): string[] {
  if (i.target.startsWith(UNRESOLVED)) return [`${where(i)}\n  cannot be resolved.`];
  const part = partOf(i.from.path)!;
  if (part.imports.some((prefix) => i.target.startsWith(prefix))) return [];
  return [
    `${where(i)}\n  ${part.name} (${part.prefix}) may import only ${part.imports.join(', ')}, not ${i.target}.`,
  ];
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
