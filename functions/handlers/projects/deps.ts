import { systemClock } from '../../core/clock';
import type { ProjectDeps } from '../../core/projects/project-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { repositoryAddressProblem, repositoryAddressRulesFromEnvironment } from '../../adapters/repository/repository-address';

export const projectDeps = (): ProjectDeps => {
  const rules = repositoryAddressRulesFromEnvironment();
  return {
    projects: dynamoProjectRepository(tableFromEnvironment()),
    clock: systemClock,
    repositoryProblem: (address) => repositoryAddressProblem(address, rules),
  };
};
