// Container health check without curl in the image: exits 0 when GET <url> answers 2xx within 3 s.
const url = process.argv[2] ?? "http://127.0.0.1:8080/readyz";
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
