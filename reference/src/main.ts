/**
 * The API reference page (/docs): Swagger UI over the document this service serves at
 * /openapi.json. The document's `servers` names make run's default address; the page puts the
 * address it was loaded from first, so "Try it out" talks to this very service (the page's
 * content security policy allows no other).
 */
interface SwaggerUiOptions {
  spec: object;
  domNode: HTMLElement;
  presets: unknown[];
  layout: string;
  deepLinking: boolean;
  tryItOutEnabled: boolean;
  persistAuthorization: boolean;
  displayRequestDuration: boolean;
  defaultModelsExpandDepth: number;
  validatorUrl: null;
}
declare const SwaggerUIBundle: ((options: SwaggerUiOptions) => unknown) & { presets: { apis: unknown } };

interface Document {
  servers?: { url: string; description?: string }[];
  jsonSchemaDialect?: string;
}

async function main(): Promise<void> {
  const root = document.getElementById("reference")!;
  const answer = await fetch("/openapi.json");
  if (!answer.ok) {
    root.textContent = `Could not load /openapi.json (${answer.status}).`;
    return;
  }
  const spec = (await answer.json()) as Document;
  const here = window.location.origin;
  spec.servers = [
    { url: here, description: "This service (the address this page came from)" },
    ...(spec.servers ?? []).filter((s) => s.url !== here),
  ];
  // Swagger UI shows a warning box for any dialect but OpenAPI's own base dialect; the document's
  // (plain JSON Schema 2020-12, which that dialect extends) renders the same, so the page omits it.
  delete spec.jsonSchemaDialect;
  root.replaceChildren();
  SwaggerUIBundle({
    spec,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    // Never send the document to an outside validator (the default would).
    validatorUrl: null,
  });
}

void main();
