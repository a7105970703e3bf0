import { projectSortFields } from '../../core/projects/project';
import { listQuery } from './common';

export const listProjectsQuery = listQuery(projectSortFields, {});
