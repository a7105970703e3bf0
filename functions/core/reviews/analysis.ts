import type { RawFinding } from '../security/scanner';
import type { VerificationProblem, VerificationReport } from '../workflows/stage-data';
import type { DraftComment } from './comment-drafts';
import { addedLines, type DiffFile } from './diff-files';

/** What the deterministic analysis of a change reported, before the AI is asked. */
export interface AnalysisResults {
  /** The checks of the changed files (syntax, types, JSON, YAML): verify's CheckChangedFiles. */
  checks: VerificationReport;
  /** What the sast and secrets scanners reported (findings on lines the change did not add are not its doing). */
  findings: RawFinding[];
}

/** `TS2322: Type …` → `typescript/TS2322`; other checks by their name (`json/syntax`). */
const ruleOfProblem = (problem: VerificationProblem): string => {
  const code = /^(TS\d+):/.exec(problem.message)?.[1];
  if (code) return `typescript/${code}`;
  if (problem.check === 'json' || problem.check === 'yaml') return `${problem.check}/syntax`;
  return `check/${problem.check}`;
};

const checkTitles: Record<string, string> = {
  types: 'The type check fails here',
  syntax: 'This does not parse',
  json: 'This is not valid JSON',
  yaml: 'This is not valid YAML',
};

/**
 * The analysis results that fall on lines the change added, each a comment of its own with the
 * rule's name. A result on another line (unchanged code, a deleted file) is no comment: it is
 * counted in `outsideDiff`, never moved onto a line it is not about.
 */
export const analysisComments = (files: DiffFile[], results: AnalysisResults): { comments: DraftComment[]; outsideDiff: number } => {
  const added = new Map(files.map((file) => [file.path, addedLines(file)]));
  const comments: DraftComment[] = [];
  let outsideDiff = 0;
  const place = (path: string, line: number | null, comment: () => Omit<DraftComment, 'path' | 'line' | 'start_line'>) => {
    const lines = added.get(path);
    if (!lines) return;
    if (line === null || !lines.has(line)) {
      outsideDiff += 1;
      return;
    }
    comments.push({ path, start_line: null, line, ...comment() });
  };

  for (const problem of results.checks.problems) {
    place(problem.path, problem.line, () => ({
      severity: 'high',
      category: 'bug',
      source: 'analysis',
      rule: ruleOfProblem(problem),
      body: `**${checkTitles[problem.check] ?? `The ${problem.check} check fails here`}** (${ruleOfProblem(problem)})\n\n${problem.message}`,
      suggestion: null,
    }));
  }
  for (const finding of results.findings) {
    place(finding.location.path, finding.location.line, () => ({
      severity: finding.severity,
      category: 'security',
      source: 'analysis',
      rule: finding.rule_id,
      // The title and description never hold a secret (the scanners redact before they report).
      body: `**${finding.title}** (${finding.type} rule ${finding.rule_id})\n\n${finding.description}`,
      suggestion: null,
    }));
  }
  return { comments, outsideDiff };
};
