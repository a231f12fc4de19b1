/**
 * A command-line tool's `main` (what its bin/ script calls) run inside the test's process, with
 * the arguments, environment, output and exit code a separate run of the tool has. A separate
 * Node start costs the tool's whole module load each time (seconds on a loaded machine); the
 * tests of a tool's process boundary (usage errors, stdin, exit codes) still start the binary.
 */
export async function runMainHere(
  main: () => Promise<void>,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  const saved = {
    argv: process.argv,
    env: Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]])),
    exitCode: process.exitCode,
    stdout: process.stdout.write.bind(process.stdout),
    stderr: process.stderr.write.bind(process.stderr),
  };
  let stdout = "";
  let stderr = "";
  process.argv = [process.argv[0]!, "main", ...args];
  Object.assign(process.env, env);
  process.exitCode = undefined;
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    await main();
    return { stdout, stderr, code: Number(process.exitCode ?? 0) };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    process.argv = saved.argv;
    process.exitCode = saved.exitCode;
    for (const [k, v] of Object.entries(saved.env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
