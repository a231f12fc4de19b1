/**
 * How many places a request's answer passes through after the strategy returns, read from the
 * source with the TypeScript checker: the call graph from the statements of `solveRequest` that
 * follow `solveFeasibly(...)`, every function reached (a stop), the files they live in, and the
 * climbs: call sites in src/problem of an evaluation function of strategies/core (the path goes
 * down to the evaluator and back up to src/problem to read a route again). Also the walks: the
 * reached src/problem functions that loop over a route or a schedule themselves.
 *
 *   node --import tsx bench/post-solve-path.ts [--list]
 */
import path from "node:path";
import ts from "typescript";

const rootAt = process.argv.indexOf("--root");
/** `--root DIR`: another checkout's src/ and strategies/ (e.g. main's, to count before a change). */
const ROOT = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]!) : path.resolve(import.meta.dirname, "..");
const ENTRY = path.join(ROOT, "src/problem/solve-request.ts");
/** Files of strategies/core whose functions evaluate routes (times, loads, rules, costs). */
const EVALUATION_FILE = /strategies\/core\/(evaluator|evaluate-[\w-]+|answer-[\w-]+|schedule|travel-schedule|travel-score)\.ts$/;
/** Iterated expressions that are a route, a plan's routes or a schedule's rows. */
const ROUTE_LIKE = /\b(route|routes|customers|nodes|schedule|stops|onBoard|profile)\b/;
/** What a loop reads when it computes times, loads or costs again: the problem's per-node data or the evaluator. */
const RECOMPUTES = new RegExp(
  "\\b(demand|pickup|shipmentLoad|extraDemand|twStartMin|twEndMin|serviceMin|release|home|" +
    "legMinutes|distanceBetween|evaluateRoute|evaluateSolution|reassignedCount)\\b",
);

const program = ts.createProgram([ENTRY], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, strict: true });
const checker = program.getTypeChecker();
const relative = (file: string) => path.relative(ROOT, file);
type FunctionLike = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

/** The function a call goes to, when it is one of the project's own (not a library's). */
function callee(call: ts.CallExpression | ts.NewExpression): { name: string; fn: FunctionLike } | null {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression);
  if (!symbol) return null;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  for (const declaration of symbol.declarations ?? []) {
    const file = declaration.getSourceFile().fileName;
    if (!/\/(src|strategies)\//.test(file) || file.includes("node_modules")) continue;
    if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return { name: symbol.name, fn: declaration };
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const init = declaration.initializer;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { name: symbol.name, fn: init };
    }
  }
  return null;
}

function callsIn(node: ts.Node, found: (ts.CallExpression | ts.NewExpression)[] = []): (ts.CallExpression | ts.NewExpression)[] {
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) found.push(node);
  ts.forEachChild(node, (child) => void callsIn(child, found));
  return found;
}

/**
 * Whether a function body walks a route, the routes or a schedule's rows and recomputes on the
 * way (its loop reads the problem's per-node data or calls the evaluator).
 */
function walksRoutes(fn: FunctionLike): boolean {
  let walks = false;
  const visit = (node: ts.Node): void => {
    if (walks) return;
    if (ts.isForOfStatement(node) && ROUTE_LIKE.test(node.expression.getText()) && RECOMPUTES.test(node.statement.getText())) walks = true;
    if (ts.isForStatement(node) && node.condition && ROUTE_LIKE.test(node.condition.getText()) && RECOMPUTES.test(node.statement.getText()))
      walks = true;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const body = node.arguments[0]?.getText() ?? "";
      if (
        ["forEach", "map", "filter", "some", "every", "reduce", "flatMap"].includes(method) &&
        ROUTE_LIKE.test(node.expression.expression.getText()) &&
        RECOMPUTES.test(body)
      )
        walks = true;
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return walks;
}

const entryFile = program.getSourceFile(ENTRY)!;
let solveRequest: ts.FunctionDeclaration | undefined;
entryFile.forEachChild((n) => {
  if (ts.isFunctionDeclaration(n) && n.name?.text === "solveRequest") solveRequest = n;
});
const statements = solveRequest!.body!.statements;
const afterSolve = statements.findIndex((s) => s.getText().includes("solveFeasibly("));
const start = statements.slice(afterSolve + 1);

const stops = new Map<string, FunctionLike>();
const climbs: string[] = [];
const queue: { from: string; calls: (ts.CallExpression | ts.NewExpression)[] }[] = [
  { from: "src/problem/solve-request.ts", calls: start.flatMap((s) => callsIn(s)) },
];
while (queue.length > 0) {
  const { from, calls } = queue.shift()!;
  for (const call of calls) {
    const target = callee(call);
    if (!target) continue;
    const file = relative(target.fn.getSourceFile().fileName);
    const key = `${file}:${target.name}`;
    if (from.startsWith("src/problem/") && EVALUATION_FILE.test(file)) {
      const line = call.getSourceFile().getLineAndCharacterOfPosition(call.getStart()).line + 1;
      climbs.push(`${from}:${line} -> ${key}`);
    }
    if (stops.has(key)) continue;
    stops.set(key, target.fn);
    queue.push({ from: file, calls: target.fn.body ? callsIn(target.fn.body) : [] });
  }
}
const files = new Set([...stops.keys()].map((k) => k.split(":")[0]!));
const walks = [...stops].filter(([key, fn]) => key.startsWith("src/problem/") && walksRoutes(fn)).map(([key]) => key);
const evaluatorCalls = climbs.filter((c) => /:(evaluateRoute|evaluateSolution|evaluateAnswer)$/.test(c));
console.log(
  JSON.stringify({
    stops: stops.size,
    files: files.size,
    srcProblemStops: [...stops.keys()].filter((k) => k.startsWith("src/problem/")).length,
    srcProblemFiles: [...files].filter((f) => f.startsWith("src/problem/")).length,
    climbs: climbs.length,
    routeEvaluationsFromSrcProblem: evaluatorCalls.length,
    srcProblemWalks: walks.length,
  }),
);
if (process.argv.includes("--list")) {
  console.log(["stops:", ...[...stops.keys()].sort(), "climbs:", ...climbs, "walks:", ...walks].join("\n"));
}
