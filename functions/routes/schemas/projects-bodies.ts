import * as v from 'valibot';
import { documentedAs, freeText, lengthIn, nameText } from './common';

// Each schema in one call marked pure: a bundle keeps only those its handler uses (see webhooks-bodies.ts).

const name = /* @__PURE__ */ (() =>
  nameText(100, '1 to 100 characters (Unicode code points), not blank; no control or bidirectional control characters.'))();

// https only: the service fetches and pushes over https (with the deployment's token where
// `repositoryTokenHosts` lets it go); it has no ssh client, so an ssh address could never be checked out.
const repositoryAddress = /^(https:\/\/[^\s/@]+(:\d+)?\/\S*|file:\/\/\/\S*)$/;

const repository = /* @__PURE__ */ (() =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(0, 2048, 'must be at most 2048 characters'),
    v.regex(repositoryAddress, 'must be an https:// URL (ssh:// and git@host:path addresses are not supported) or a file:/// URL'),
    v.description(
      'Where the code lives: an https URL (its host must not be a private, loopback, link-local or reserved address) or a file:/// URL (only in the local runtime, where it enables them; 422 elsewhere). ssh:// and git@host:path addresses are refused: the service fetches over https.',
    ),
  ))();

const description = /* @__PURE__ */ (() =>
  freeText(2000, 'At most 2000 characters; no control characters other than tab and line breaks.'))();

export const createProjectBody = /* @__PURE__ */ (() => v.strictObject({ name, repository, description: v.optional(description) }))();

const changeableFields = ['name', 'repository', 'description'] as const;

export const updateProjectBody = /* @__PURE__ */ (() => {
  const schema = v.pipe(
    v.strictObject({ name: v.optional(name), repository: v.optional(repository), description: v.optional(description) }),
    v.check(
      (changes) => changeableFields.some((field) => changes[field] !== undefined),
      `must change at least one of ${changeableFields.join(', ')}`,
    ),
  );
  // A PATCH that changes nothing is refused: the document says so as `minProperties: 1`.
  documentedAs(schema.pipe[1], { minProperties: 1 });
  return schema;
})();
