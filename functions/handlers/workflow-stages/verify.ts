import * as v from 'valibot';
import { runVerify } from '../../core/workflows/stages/verify';
import { sastScanner } from '../../engines/scanners/sast/sast-scanner';
import { secretsScanner } from '../../engines/scanners/secrets-scanner';
import { verifyChangedFiles } from '../../engines/verification/check-files';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = { ...stageDeps({ securityScanners: [secretsScanner(), sastScanner()] }), checkFiles: verifyChangedFiles };

export const handler = async (event: unknown): Promise<unknown> => runVerify(deps, v.parse(stageInput, event).workflow);
