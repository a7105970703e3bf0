import { systemClock } from '../../core/clock';
import type { ProjectDeps } from '../../core/projects/project-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';

export const projectDeps = (): ProjectDeps => ({ projects: dynamoProjectRepository(tableFromEnvironment()), clock: systemClock });
