import { expect } from 'vitest'
import { isErrorBody, type ErrorBody } from '../../../contract/errors'

/** Asserts the API's one error shape and answers it typed. */
export function errorBody(body: unknown): ErrorBody {
  expect(isErrorBody(body), JSON.stringify(body)).toBe(true)
  return body as ErrorBody
}

/** Asserts an answer is the API's error with this status and code (and `details.reason`, when given); answers the error. */
export async function expectError(res: Response, status: number, code: string, reason?: string): Promise<ErrorBody['error']> {
  expect(res.status, await res.clone().text()).toBe(status)
  const { error } = errorBody(await res.json())
  expect(error.code).toBe(code)
  if (reason !== undefined) expect(error.details).toMatchObject({ reason })
  return error
}
