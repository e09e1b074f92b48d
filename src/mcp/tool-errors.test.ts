import { ShelfError } from '@shelf/client';
import { describe, expect, it } from 'vitest';
import { InvalidArgument, ToolFailure, toolError } from './tool-errors.js';

/** An API failure as the client raises it. */
const apiError = (
  code: string,
  message: string,
  status: number,
  retryAfter: number | null = null,
  details: unknown = null,
) => new ShelfError({ code, message, retryAfter, details }, { status });

const text = (e: unknown) => (toolError(e).content[0] as { text: string }).text;

describe('toolError: every failure becomes a tool error an agent can act on', () => {
  it.each([
    [
      apiError('NOT_FOUND', "product 'x' was not found", 404),
      /^NOT_FOUND: product 'x' was not found\.\nCheck the identifier/,
    ],
    [
      apiError('VALIDATION_ERROR', 'days must be <= 365', 400, null, [
        { field: 'days', message: 'must be <= 365' },
      ]),
      /^INVALID_ARGUMENT: days must be <= 365\. \(days: must be <= 365\)\nFix the argument/,
    ],
    [
      apiError('RATE_LIMITED', 'rate limit of 10 requests per minute exceeded', 429, 17),
      /^RATE_LIMITED: .* Retry after 17 seconds\.\nWait the given seconds/,
    ],
    [
      apiError('QUOTA_EXCEEDED', 'monthly quota used up', 429, 86_400),
      /^QUOTA_EXCEEDED: .* Retry after 86400 seconds\./,
    ],
    [
      apiError('PLAN_REQUIRED', 'knowledge needs a higher plan', 403, null, {
        requiredPlan: 'starter',
      }),
      /^PLAN_REQUIRED: knowledge needs a higher plan\. Requires the Starter plan or above\.\nTell the user/,
    ],
    [
      apiError('PLAN_REQUIRED', 'needs pro', 403, null, { requiredPlan: 'pro' }),
      /Requires the Pro plan or above/,
    ],
    [
      apiError('AUTH_INVALID', 'the API key is malformed, unknown or revoked', 401),
      /^AUTH_INVALID: .*\nAsk the user to check/,
    ],
    [
      apiError('ROUTE_NOT_FOUND', 'no route GET /v2/x', 404),
      /^NOT_AVAILABLE: this Shelf server does not provide this data yet\./,
    ],
    [
      apiError('UNREACHABLE', 'the Shelf API at http://x could not be reached (ECONNREFUSED)', 0),
      /^UNREACHABLE: .*ECONNREFUSED.*\nThe Shelf API is unreachable/,
    ],
    [
      apiError('TIMEOUT', 'the Shelf API at http://x did not answer in time', 0),
      /^TIMEOUT: .*did not answer in time\.\nThe Shelf API did not answer in time; retry once/,
    ],
    [apiError('SOMETHING_NEW', 'odd', 500), /^INTERNAL: odd\./],
    [
      new InvalidArgument('id|slug', 'give exactly one identifier'),
      /^INVALID_ARGUMENT: id\|slug: give exactly one identifier\./,
    ],
    [
      new ToolFailure('NOT_FOUND', 'no error code "X9" is known'),
      /^NOT_FOUND: no error code "X9" is known\./,
    ],
    [new Error('secret internals at /srv/x.ts:12'), /^INTERNAL: the tool failed unexpectedly\./],
  ])('%s', (error, expected) => {
    expect(toolError(error).isError).toBe(true);
    expect(text(error)).toMatch(expected);
  });

  it('never leaks the text of unexpected errors', () => {
    expect(text(new Error('secret internals'))).not.toContain('secret');
  });
});
