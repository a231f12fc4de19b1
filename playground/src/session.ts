/**
 * Credentials live in sessionStorage only (gone when the tab closes) and travel only as request
 * headers, never in a URL.
 */
export type Credentials =
  | { mode: "direct"; user: string; key: string }
  | { mode: "marketplace"; secretHeader: string; secret: string; userHeader: string; user: string };

const STORAGE_KEY = "vrp-playground-credentials";

export function loadCredentials(): Credentials | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Credentials;
  } catch {
    return null;
  }
}

export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
}

export function clearCredentials(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export function authHeaders(credentials: Credentials): Record<string, string> {
  return credentials.mode === "direct"
    ? { "X-User-Name": credentials.user, "X-Api-Key": credentials.key }
    : { [credentials.secretHeader]: credentials.secret, [credentials.userHeader]: credentials.user };
}

export function describeCredentials(credentials: Credentials): string {
  return credentials.mode === "direct" ? `${credentials.user} (API key)` : `${credentials.user} (marketplace)`;
}
