/**
 * The one place credentials are given. Direct access: the account's user name and API key.
 * Marketplace access: the platform proxy's shared secret and the platform's user (the operator
 * may rename both headers; the defaults are the document's).
 */
export type Credentials =
  { user: string; apiKey: string } | { marketplace: { proxySecret: string; user: string; secretHeader?: string; userHeader?: string } };

export function credentialHeaders(credentials: Credentials): Record<string, string> {
  if ("marketplace" in credentials) {
    const m = credentials.marketplace;
    return {
      [m.secretHeader ?? "X-Marketplace-Proxy-Secret"]: m.proxySecret,
      [m.userHeader ?? "X-Marketplace-User"]: m.user,
    };
  }
  return { "X-User-Name": credentials.user, "X-Api-Key": credentials.apiKey };
}
