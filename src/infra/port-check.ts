import { createServer } from "node:net";

/** True when nothing listens on host:port yet (a trial listen that is closed at once). */
export async function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the service wants, the variable that sets it and what it is for (for the message). */
export interface WantedPort {
  port: number;
  variable: string;
  role: string;
}

/**
 * The first wanted port that is taken, as the one line a person needs: which port, what it is
 * for and which variable moves it, with a free port to try. Null when every port is free.
 */
export async function takenPortMessage(wanted: readonly WantedPort[], host = "127.0.0.1"): Promise<string | null> {
  const wantedPorts = new Set(wanted.map((w) => w.port));
  for (const w of wanted) {
    if (await portIsFree(w.port, host)) continue;
    let suggestion = w.port + 1;
    while (suggestion < 65535 && (wantedPorts.has(suggestion) || !(await portIsFree(suggestion, host)))) suggestion++;
    return `port ${w.port} is in use (${w.role}); set ${w.variable}=... to use another, e.g. ${w.variable}=${suggestion} make run`;
  }
  return null;
}
