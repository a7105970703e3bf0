import * as v from 'valibot';
import { aiProviderNames } from '../../core/ai/provider';
import { frameworks } from '../../core/testing/results';
import { branchName, lengthIn, wholeNumberIn } from './common';

// Each schema in one call marked pure: a bundle keeps only those its handler uses (see webhooks-bodies.ts).

const branch = /* @__PURE__ */ (() => v.pipe(branchName, v.description("The repository's default branch when absent.")))();

const repositoryPath = /* @__PURE__ */ (() =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(1, 1024, 'must be 1 to 1024 characters'),
    v.check((path) => !path.startsWith('/') && !path.split('/').includes('..'), 'must be a path inside the repository'),
  ))();

export const generateTestsBody = /* @__PURE__ */ (() =>
  v.strictObject({
    project_id: v.pipe(v.string('must be a string'), v.minLength(1, 'is required')),
    branch: v.optional(branch),
    paths: v.optional(
      v.pipe(
        v.array(repositoryPath, 'must be an array of paths'),
        v.minLength(1, 'must name at least one file or folder'),
        v.maxLength(50, 'must name at most 50 paths'),
        v.description('Files or folders to cover; the whole repository when absent. A path named twice counts once.'),
      ),
    ),
    framework: v.optional(
      v.pipe(v.picklist(frameworks, `must be one of ${frameworks.join(', ')}`), v.description('Detected from the repository when absent.')),
    ),
    ai_provider: v.optional(
      v.pipe(
        v.picklist(aiProviderNames, `must be one of ${aiProviderNames.join(', ')} (and configured in this deployment)`),
        v.description('One of the configured providers; the first configured when absent.'),
      ),
    ),
    instructions: v.optional(v.pipe(v.string('must be a string'), lengthIn(0, 5000, 'must be at most 5000 characters'))),
  }))();

export const runTestsBody = /* @__PURE__ */ (() =>
  v.strictObject({
    test_id: v.optional(v.pipe(v.string('must be a string'), v.description('A completed generated suite (test_…); or give project_id.'))),
    project_id: v.optional(v.pipe(v.string('must be a string'), v.description("Run the repository's own tests; or give test_id."))),
    branch: v.optional(branch),
    timeout_seconds: v.optional(wholeNumberIn(1, 900, 'Default 300, at most 900.')),
  }))();
