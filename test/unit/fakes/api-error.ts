import { ApiError } from '../../../functions/core/errors';

/** The ApiError a promise rejects with (fails the test when it resolves or throws something else). */
export const apiErrorOf = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, but the call succeeded');
};
