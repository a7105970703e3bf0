import * as v from 'valibot';
import { aiProviderNames } from '../../core/ai/provider';
import { branchName, lengthIn, nameText, wholeNumberIn } from './common';

// Each schema in one call marked pure: a bundle keeps only those its handler uses (see webhooks-bodies.ts).

const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const prompt = /* @__PURE__ */ (() =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(1, 20_000, 'must be 1 to 20000 characters'),
    v.regex(/\S/, 'must not be blank'),
    v.check((text) => !controlCharacters.test(text), 'must not contain control characters other than tab and line breaks'),
    v.description('The instruction for the workflow, 1 to 20,000 characters.'),
  ))();

const name = /* @__PURE__ */ (() => nameText(100, "1 to 100 characters (Unicode code points); defaults to the prompt's first line."))();

const branch = /* @__PURE__ */ (() =>
  v.pipe(branchName, v.description("Branch to work from; the repository's default branch when absent.")))();

const config = /* @__PURE__ */ (() =>
  v.strictObject({
    ai_provider: v.optional(
      v.pipe(
        v.picklist(aiProviderNames, `must be one of ${aiProviderNames.join(', ')} (and configured in this deployment)`),
        v.description(
          'One of the AI providers this deployment configured; the first configured when absent (`local` in the local runtime).',
        ),
      ),
    ),
    auto_deploy: v.optional(v.boolean('must be true or false'), false),
    branch: v.optional(branch),
    max_iterations: v.optional(wholeNumberIn(1, 5, 'Fix rounds allowed after a failed verification, 1 to 5; default 2.')),
    review: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description(
          "Verify reviews the build's change beside its checks (a code review, `rev_…`); its comments of severity high or worse feed iterate. Default true.",
        ),
      ),
    ),
  }))();

export const createWorkflowBody = /* @__PURE__ */ (() =>
  v.strictObject({
    project_id: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'is required'),
      v.description('A project of your account and mode (proj_…).'),
    ),
    prompt,
    name: v.optional(name),
    config: v.optional(config),
  }))();
