import { join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * Which controller handlers of src/ move money exactly once, read from the code itself with the TypeScript checker:
 * a handler is one when a chain of calls from its body (through services, their private methods and the callbacks
 * they pass on) reaches `idempotentTransaction`. For each, whether it takes the request's claims with `@Claims()`
 * and hands that parameter to a call on that chain. The exactly-once spec compares this with the list in
 * docs/architecture.md, so a money route cannot be added without the list knowing, nor lose its claim unnoticed.
 */
export interface MoneyHandler {
  /** `ClassName.method`. */
  handler: string;
  /** The name of its `@Claims()` parameter, if it has one. */
  claims: string | null;
  /** Whether that parameter is an argument of a call that leads to idempotentTransaction. */
  passesClaims: boolean;
}

const ROOT = resolve(__dirname, '..', '..');
const TARGET = { file: 'src/idempotency/idempotent-transaction.ts', name: 'idempotentTransaction' };
const CLAIMS = { file: 'src/idempotency/claims.decorator.ts', name: 'Claims' };
const ROUTE_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All']);

type Callable = ts.SignatureDeclaration & { body?: ts.Node };

export function moneyHandlers(): MoneyHandler[] {
  const program = createProgram();
  const checker = program.getTypeChecker();
  const sources = program
    .getSourceFiles()
    .filter((sf) => inSrc(sf.fileName) && !sf.fileName.endsWith('.spec.ts'));
  const reach = reachability(checker);
  const found: MoneyHandler[] = [];
  for (const sf of sources) {
    for (const cls of sf.statements.filter(ts.isClassDeclaration)) {
      if (!cls.name || !decoratorNames(cls).includes('Controller')) continue;
      for (const method of cls.members.filter(ts.isMethodDeclaration)) {
        if (!decoratorNames(method).some((d) => ROUTE_DECORATORS.has(d)) || !reach.reaches(method)) continue;
        const param = method.parameters.find((p) =>
          ts.getDecorators(p)?.some((d) => isExport(checker, calleeOf(d.expression), CLAIMS)),
        );
        const claims = param && ts.isIdentifier(param.name) ? param.name : null;
        found.push({
          handler: `${cls.name.text}.${method.name.getText(sf)}`,
          claims: claims?.text ?? null,
          passesClaims: claims !== null && reach.passes(method, checker.getSymbolAtLocation(claims)),
        });
      }
    }
  }
  return found.sort((a, b) => (a.handler < b.handler ? -1 : 1));
}

function createProgram(): ts.Program {
  const configFile = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configFile, (p) => ts.sys.readFile(p));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT, undefined, configFile);
  const roots = ts.sys.readDirectory(join(ROOT, 'src'), ['.ts']).filter((f) => !f.endsWith('.spec.ts'));
  return ts.createProgram(roots, { ...options, noEmit: true });
}

/** Whether a callable's calls lead to the target, and whether a call that does passes a given symbol on. */
function reachability(checker: ts.TypeChecker): {
  reaches(fn: Callable): boolean;
  passes(fn: Callable, symbol: ts.Symbol | undefined): boolean;
} {
  const memo = new Map<ts.Node, boolean>();
  const reaches = (fn: Callable): boolean => {
    const known = memo.get(fn);
    if (known !== undefined) return known;
    memo.set(fn, false); // a cycle leads nowhere new
    const result = callsIn(fn).some(({ targets }) => targets.some((t) => t === 'target' || reaches(t)));
    memo.set(fn, result);
    return result;
  };
  const callsIn = (fn: Callable) => {
    const out: { call: ts.CallExpression; targets: (Callable | 'target')[] }[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) out.push({ call: node, targets: resolveCall(checker, node) });
      // Callbacks (arrow functions, function expressions) run as part of the call they are given to.
      if (node !== fn && (ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node))) return;
      ts.forEachChild(node, visit);
    };
    if (fn.body) visit(fn.body);
    return out;
  };
  const passes = (fn: Callable, symbol: ts.Symbol | undefined): boolean =>
    symbol !== undefined &&
    callsIn(fn).some(
      ({ call, targets }) =>
        targets.some((t) => t === 'target' || reaches(t)) &&
        call.arguments.some((a) => ts.isIdentifier(a) && checker.getSymbolAtLocation(a) === symbol),
    );
  return { reaches, passes };
}

/** The declarations in src/ a call may run: the target itself, or functions and methods with a body. */
function resolveCall(checker: ts.TypeChecker, call: ts.CallExpression): (Callable | 'target')[] {
  const symbol = resolvedSymbol(checker, calleeOf(call.expression));
  if (!symbol) return [];
  if (isTarget(symbol)) return ['target'];
  return (symbol.declarations ?? []).flatMap((d): Callable[] => {
    if (!inSrc(d.getSourceFile().fileName)) return [];
    if ((ts.isMethodDeclaration(d) || ts.isFunctionDeclaration(d)) && d.body) return [d];
    const init =
      (ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) && d.initializer
        ? d.initializer
        : undefined;
    return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? [init] : [];
  });
}

function calleeOf(expression: ts.Expression): ts.Node {
  const inner = ts.isCallExpression(expression) ? expression.expression : expression;
  return ts.isPropertyAccessExpression(inner) ? inner.name : inner;
}

function resolvedSymbol(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function isTarget(symbol: ts.Symbol): boolean {
  return symbol.name === TARGET.name && declaredIn(symbol, TARGET.file);
}

function isExport(checker: ts.TypeChecker, node: ts.Node, what: { file: string; name: string }): boolean {
  const symbol = resolvedSymbol(checker, node);
  return symbol?.name === what.name && declaredIn(symbol, what.file);
}

function declaredIn(symbol: ts.Symbol, file: string): boolean {
  return (symbol.declarations ?? []).some((d) => repoPath(d.getSourceFile().fileName) === file);
}

function decoratorNames(node: ts.HasDecorators): string[] {
  return (ts.getDecorators(node) ?? []).map((d) => {
    const callee = ts.isCallExpression(d.expression) ? d.expression.expression : d.expression;
    return ts.isIdentifier(callee) ? callee.text : '';
  });
}

function repoPath(fileName: string): string {
  return relative(ROOT, fileName).split(sep).join('/');
}

function inSrc(fileName: string): boolean {
  return repoPath(fileName).startsWith('src/');
}
