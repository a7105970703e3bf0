import type { ReviewAnswer, ReviewTask } from '../../core/ai/review-task';
import { severities } from '../../core/security/scanner';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The `local` provider's review: it adds nothing it cannot justify from the analysis the task
 * carries (type check, sast, secrets), which are comments of their own already. So no comment of
 * its own; a summary that counts what the analysis found on the changed lines; and the verdict
 * those findings call for: `request_changes` for anything high or critical, `comment` for
 * anything else, `approve` when the analysis found nothing.
 */
export const localReview = (task: ReviewTask): ReviewAnswer => {
  const files = task.files.length;
  // The review numbers the parts of a split change itself ("Part 1 of 2: …").
  const scope = `${plural(files, 'file')} reviewed`;
  const limit = 'The local provider adds no comment of its own; a model reviews the logic.';
  if (task.analysis.length === 0) {
    return {
      summary: `${scope}. The type check, sast and secrets analysis found nothing on the changed lines. ${limit}`,
      verdict: 'approve',
      comments: [],
    };
  }
  const counts = severities
    .map((severity) => [severity, task.analysis.filter((finding) => finding.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`);
  const rules = [...new Set(task.analysis.map((finding) => finding.rule))].sort();
  const blocking = task.analysis.some((finding) => finding.severity === 'critical' || finding.severity === 'high');
  return {
    summary: `${scope}. The analysis found ${plural(task.analysis.length, 'issue')} on the changed lines (${counts.join(', ')}): ${rules.join(', ')}. ${limit}`,
    verdict: blocking ? 'request_changes' : 'comment',
    comments: [],
  };
};
