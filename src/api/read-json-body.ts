import { bodyParser } from "@koa/bodyparser";
import type { Context } from "koa";
import { ApiError } from "../errors/api-error.js";

/**
 * Reads the JSON body on demand (after authentication and the rate check, as the order of checks
 * requires) and turns the body parser's failures into the envelope's 400 / 413 / 415.
 */
export interface JsonBody {
  /**
   * Any JSON value (not only objects: `5` or `null` are well-formed JSON, refused by validation
   * with a 422, not here); undefined for an empty body.
   */
  parsed: unknown;
  /** The body as received (decoded to text): stored as is, so a large body is not serialised again. */
  raw: string;
}

export function createJsonBodyReader(maxBodyBytes: number) {
  // Not strict: strict mode answers 400 "only supports object and array" for well-formed JSON
  // such as `5` and turns an empty body into {}; both are for validation to refuse (422).
  const parse = bodyParser({ enableTypes: ["json"], jsonLimit: maxBodyBytes, jsonStrict: false, encoding: "utf-8" });
  return async function readJsonBody(ctx: Context): Promise<JsonBody> {
    if (!ctx.is("application/json")) {
      throw new ApiError("unsupported_media_type", "Content-Type must be application/json");
    }
    const declared = Number(ctx.get("content-length") || "0");
    if (declared > maxBodyBytes) throw tooLarge(maxBodyBytes);
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      const e = err as { status?: number; type?: string; message?: string };
      if (e.status === 413 || e.type === "entity.too.large") throw tooLarge(maxBodyBytes);
      if (e.status === 415 || e.type === "encoding.unsupported" || e.type === "charset.unsupported") {
        throw new ApiError("unsupported_media_type", "The request body must be UTF-8 encoded JSON");
      }
      throw new ApiError("malformed_json", `Malformed JSON body: ${e.message ?? "could not be parsed"}`, { cause: err });
    }
    const request = ctx.request as unknown as { body: unknown; rawBody?: string };
    const raw = request.rawBody ?? JSON.stringify(request.body);
    return { parsed: raw === "" ? undefined : request.body, raw };
  };
}

function tooLarge(limit: number): ApiError {
  return new ApiError("payload_too_large", `Request body exceeds the limit of ${limit} bytes`);
}
