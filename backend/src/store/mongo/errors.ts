/** Driver errors as the port's error classes. */
import { MongoNetworkError, MongoNotConnectedError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb'
import { DuplicateKeyError, StoreUnavailableError } from '../port'

/** Server error codes that mean the deployment is (temporarily) not usable. */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436])

/** Translates a driver error into the port's error classes; other errors pass through. */
export function toStoreError(error: unknown): unknown {
  if (error instanceof MongoServerError && error.code === 11000) {
    return new DuplicateKeyError(error.message)
  }
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError ||
    (error instanceof MongoServerError && typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code))
  ) {
    return new StoreUnavailableError(undefined, { cause: error })
  }
  return error
}

/** Runs a driver call, translating its errors into the port's. */
export async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toStoreError(error)
  }
}
