import { expect } from 'vitest';

/** Asserts the error envelope of spec §7 with the given status and code. */
export function expectError(response: { status: number; body: unknown }, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({
    success: false,
    error: {
      code,
      message: expect.any(String),
      userMessage: expect.any(String),
      retryable: expect.any(Boolean),
    },
    meta: {
      requestId: expect.any(String),
      timestamp: expect.any(String),
      responseTime: expect.any(Number),
      version: expect.any(String),
      cached: expect.any(Boolean),
    },
  });
  expect(response.body).not.toHaveProperty('data');
}

/** Asserts a success envelope and returns its data (a repeated GET may come from the response cache). */
export function expectOk<T = unknown>(response: { status: number; body: unknown }): T {
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({
    success: true,
    meta: { requestId: expect.stringMatching(/^req_/), cached: expect.any(Boolean) },
  });
  return (response.body as { data: T }).data;
}
