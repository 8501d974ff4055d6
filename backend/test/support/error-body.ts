import { expect } from 'vitest'
import { isErrorBody, type ErrorBody } from '../../../contract/errors'

/** Asserts the API's one error shape and answers it typed. */
export function errorBody(body: unknown): ErrorBody {
  expect(isErrorBody(body), JSON.stringify(body)).toBe(true)
  return body as ErrorBody
}
