import * as v from 'valibot';
import { timestamp } from './common';

export const projectSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix proj_')),
  name: v.string(),
  repository: v.string(),
  description: v.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
