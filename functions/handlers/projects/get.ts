import { getProject } from '../../core/projects/project-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getProjectRoute } from '../../routes/projects';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectReader } from '../../adapters/dynamodb/project-repository';
import { taggedReply } from '../../http/entity-tag';

// A read wires the one call it makes: no repository address rules, no writes, no list paging.
const deps = { projects: dynamoProjectReader(tableFromEnvironment()) };

export const handler = apiReadHandler(getProjectRoute, async ({ principal, params, event }) =>
  taggedReply(await getProject(principal, params.id, deps), event.headers['if-none-match']),
);
