import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { type PeopleDeps, peopleDeps } from '../../adapters/dynamodb/people-deps';

let deps: PeopleDeps | undefined;

/** The authorization server's stores on this deployment's table, built once per function instance. */
export const oauthDeps = (): PeopleDeps => (deps ??= peopleDeps(tableFromEnvironment()));
