import * as v from 'valibot';
import { branchNamePattern, freeText } from './common';

const gitRef = (description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must be 1 to 255 characters'),
    v.maxLength(255, 'must be 1 to 255 characters'),
    // A full commit id is a valid branch name too: one pattern says both.
    v.regex(branchNamePattern, 'must be a valid git branch name or a full 40-character commit id'),
    v.description(description),
  );

export const createReviewBody = v.strictObject({
  project_id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.description('A project of your account and mode (proj_…).'),
  ),
  head: gitRef('The change to review: a branch, or a full 40-character commit id.'),
  base: v.optional(
    gitRef(
      "What the change would merge into: a branch or a full commit id; the repository's default branch when absent. The diff is taken from the merge base of base and head, as a pull request's is.",
    ),
  ),
  ai_provider: v.optional(
    v.pipe(v.string('must be a string'), v.description('One of the configured providers; the first configured when absent.')),
  ),
  instructions: v.optional(
    freeText(
      5000,
      'What the review should focus on, given to the AI provider: at most 5000 characters, no control characters other than tab and line breaks.',
    ),
  ),
});
