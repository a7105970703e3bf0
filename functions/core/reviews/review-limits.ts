/**
 * How much one review takes on. Documented in the README (Code review); a deployment keeps them,
 * tests make them small.
 */
export interface ReviewLimits {
  /** Files of a diff reviewed at most (after binary and generated files are set aside); the rest are listed as not reviewed. */
  maxFiles: number;
  /**
   * Characters one AI request may hold (prompt and code; about 4 a token): 120,000 is about 30,000
   * tokens, well inside the context of every model the service configures. A larger diff is split
   * by file into several requests; a file whose diff alone is larger is not reviewed by the AI.
   */
  requestCharacters: number;
  /** Head-side lines shown around each hunk as surrounding code. */
  surroundingLines: number;
  /** Comments kept per review; past it the least severe are dropped (and counted). */
  maxComments: number;
  /** Text files larger than this are not reviewed (bytes of UTF-8). */
  maxFileBytes: number;
  /** Files listed on the review record; `files_total` counts them all. */
  maxListedFiles: number;
  /**
   * Bytes (as JSON) the listed files may take on the review record: with long paths even fewer than
   * `maxListedFiles` are listed, so the record stays well inside DynamoDB's 400 KB item.
   */
  maxListedFilesBytes: number;
}

export const defaultReviewLimits: ReviewLimits = {
  maxFiles: 300,
  requestCharacters: 120_000,
  surroundingLines: 20,
  maxComments: 200,
  maxFileBytes: 1024 * 1024,
  maxListedFiles: 1_000,
  maxListedFilesBytes: 200_000,
};

export const reviewLimitsOf = (overrides: Partial<ReviewLimits> = {}): ReviewLimits => ({ ...defaultReviewLimits, ...overrides });
