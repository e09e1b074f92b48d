import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ShelfError } from '@shelf/client';

/** A mistake in the tool arguments that the schema cannot express (e.g. "give exactly one of"). */
export class InvalidArgument extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A failure the tool itself detects, with one of the codes below (e.g. NOT_FOUND), and
 * advice of its own when the code's usual advice does not fit.
 */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly advice?: string,
  ) {
    super(message);
  }
}

/** The codes an agent sees, and what it should do about each. */
export const TOOL_ERROR_ADVICE: Record<string, string> = {
  NOT_FOUND: 'Check the identifier, or find the product with search_products first.',
  INVALID_ARGUMENT: 'Fix the argument and call the tool again.',
  RATE_LIMITED: 'Wait the given seconds, then retry the same call.',
  QUOTA_EXCEEDED: "The key's monthly quota is used up; tell the user (upgrading the plan lifts it).",
  PLAN_REQUIRED: 'Tell the user this needs a higher Shelf plan; retrying will not help.',
  AUTH_REQUIRED: 'Ask the user to configure a Shelf API key (SHELF_API_KEY).',
  AUTH_INVALID: 'Ask the user to check the Shelf API key; it is unknown or revoked.',
  KEY_NOT_ALLOWED: 'Use a secret key (sk_shelf_…); this key may not make this call.',
  NOT_AVAILABLE: 'This Shelf server does not offer that data; answer without it.',
  CATALOG_UNAVAILABLE: 'The catalog is loading; retry in a few seconds.',
  UNREACHABLE: 'The Shelf API is unreachable; retry later or ask the user to check SHELF_API_URL.',
  TIMEOUT: 'The Shelf API did not answer in time; retry once, then answer without this data.',
  INTERNAL: 'A server error; retry once, then answer without this data.',
};

/** Maps an API error code to the code shown to agents (REST validation → INVALID_ARGUMENT). */
export function toolErrorCode(apiCode: string): string {
  if (apiCode === 'VALIDATION_ERROR') return 'INVALID_ARGUMENT';
  if (apiCode === 'ROUTE_NOT_FOUND' || apiCode === 'METHOD_NOT_ALLOWED') return 'NOT_AVAILABLE';
  if (apiCode in TOOL_ERROR_ADVICE) return apiCode;
  return 'INTERNAL';
}

const PLAN_NAMES: Record<string, string> = {
  free: 'Free',
  starter: 'Starter',
  pro: 'Pro',
  enterprise: 'Enterprise',
};

function detailLine(error: ShelfError, code: string): string {
  // the API's message usually says the plan already ("… requires the Starter plan or above")
  if (code === 'PLAN_REQUIRED' && !/plan or above/i.test(error.message)) {
    const required = (error.details as { requiredPlan?: string; currentPlan?: string } | null)?.requiredPlan;
    const name = required ? (PLAN_NAMES[required] ?? required) : 'Starter';
    return ` Requires the ${name} plan or above.`;
  }
  if (code === 'INVALID_ARGUMENT' && Array.isArray(error.details)) {
    const fields = (error.details as { field?: string; message?: string }[])
      .map((d) => `${d.field ?? '?'}: ${d.message ?? 'invalid'}`)
      .join('; ');
    return fields ? ` (${fields})` : '';
  }
  return '';
}

/**
 * A failed call as a tool error the model can act on, never a protocol error. The first line
 * is `CODE: what happened`, the second what to do; RATE_LIMITED names the seconds to wait.
 */
export function toolError(error: unknown): CallToolResult {
  let code: string;
  let message: string;
  let retryAfter: number | null = null;
  let ownAdvice: string | undefined;
  if (error instanceof ShelfError) {
    code = toolErrorCode(error.code);
    message = `${error.message}.${detailLine(error, code)}`;
    retryAfter = error.retryAfter;
    if (code === 'NOT_AVAILABLE') message = 'this Shelf server does not provide this data yet.';
  } else if (error instanceof InvalidArgument) {
    code = 'INVALID_ARGUMENT';
    message = `${error.field}: ${error.message}.`;
  } else if (error instanceof ToolFailure) {
    code = error.code;
    message = `${error.message}.`;
    ownAdvice = error.advice;
  } else {
    code = 'INTERNAL';
    message = 'the tool failed unexpectedly.';
  }
  const wait =
    retryAfter !== null && (code === 'RATE_LIMITED' || code === 'QUOTA_EXCEEDED')
      ? ` Retry after ${retryAfter} seconds.`
      : '';
  const advice = ownAdvice ?? TOOL_ERROR_ADVICE[code] ?? '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message.replace(/\.\.$/, '.')}${wait}\n${advice}` }],
  };
}

/**
 * The SDK answers arguments its schema refuses with "MCP error -32602: Input validation
 * error: Invalid arguments for tool X: <message> at <field>"; agents get the documented
 * `INVALID_ARGUMENT: field: message` result instead, as for every other argument mistake.
 * Null for any other message.
 */
export function inputValidationError(sdkMessage: string): CallToolResult | null {
  const m = /Input validation error: Invalid arguments for tool [^:]+: ([\s\S]*)$/.exec(sdkMessage);
  if (!m) return null;
  const problems = m[1]!
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const at = / at ([\w.[\]]+)$/.exec(line);
      return at ? `${at[1]}: ${line.slice(0, at.index)}` : line;
    });
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `INVALID_ARGUMENT: ${problems.join('; ')}.\n${TOOL_ERROR_ADVICE.INVALID_ARGUMENT}`,
      },
    ],
  };
}
