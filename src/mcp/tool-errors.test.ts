import { describe, expect, it } from 'vitest';
import { ShelfApiError } from './rest-client.js';
import { InvalidArgument, ToolFailure, toolError } from './tool-errors.js';

const text = (e: unknown) => (toolError(e).content[0] as { text: string }).text;

describe('toolError: every failure becomes a tool error an agent can act on', () => {
  it.each([
    [
      new ShelfApiError('NOT_FOUND', "product 'x' was not found", 404),
      /^NOT_FOUND: product 'x' was not found\.\nCheck the identifier/,
    ],
    [
      new ShelfApiError('VALIDATION_ERROR', 'days must be <= 365', 400, null, [
        { field: 'days', message: 'must be <= 365' },
      ]),
      /^INVALID_ARGUMENT: days must be <= 365\. \(days: must be <= 365\)\nFix the argument/,
    ],
    [
      new ShelfApiError('RATE_LIMITED', 'rate limit of 10 requests per minute exceeded', 429, 17),
      /^RATE_LIMITED: .* Retry after 17 seconds\.\nWait the given seconds/,
    ],
    [
      new ShelfApiError('QUOTA_EXCEEDED', 'monthly quota used up', 429, 86_400),
      /^QUOTA_EXCEEDED: .* Retry after 86400 seconds\./,
    ],
    [
      new ShelfApiError('PLAN_REQUIRED', 'knowledge needs a higher plan', 403, null, {
        requiredPlan: 'starter',
      }),
      /^PLAN_REQUIRED: knowledge needs a higher plan\. Requires the Starter plan or above\.\nTell the user/,
    ],
    [
      new ShelfApiError('PLAN_REQUIRED', 'needs pro', 403, null, { requiredPlan: 'pro' }),
      /Requires the Pro plan or above/,
    ],
    [
      new ShelfApiError('AUTH_INVALID', 'the API key is malformed, unknown or revoked', 401),
      /^AUTH_INVALID: .*\nAsk the user to check/,
    ],
    [
      new ShelfApiError('ROUTE_NOT_FOUND', 'no route GET /v2/x', 404),
      /^NOT_AVAILABLE: this Shelf server does not provide this data yet\./,
    ],
    [
      new ShelfApiError('UNREACHABLE', 'the Shelf API at http://x could not be reached (ECONNREFUSED)', 0),
      /^UNREACHABLE: .*ECONNREFUSED.*\nThe Shelf API is unreachable/,
    ],
    [new ShelfApiError('SOMETHING_NEW', 'odd', 500), /^INTERNAL: odd\./],
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
