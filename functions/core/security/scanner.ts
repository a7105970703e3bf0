export const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof severities)[number];
export const scanTypes = ['sast', 'secrets', 'dependencies'] as const;
export type ScanType = (typeof scanTypes)[number];

/** One issue a scanner reports. `snippet` is what the fingerprint is made from: for secrets, never the secret (see redact.ts). */
export interface RawFinding {
  type: ScanType;
  rule_id: string;
  severity: Severity;
  title: string;
  description: string;
  location: { path: string; line: number | null };
  /** Normalised, secret-free text identifying the issue at its place (used for the stable fingerprint). */
  snippet: string;
  /** Redacted excerpt shown to users (never a secret). */
  excerpt: string | null;
  /** Scanner-specific facts (e.g. package, installed and fixed versions, advisory ids). JSON, no secrets. */
  details: Record<string, unknown>;
}

export interface Coverage {
  /** Files the scanner looked at. */
  files_scanned: number;
  /** Languages or file kinds covered (e.g. 'JavaScript', 'TypeScript', 'package-lock.json'). */
  covered: string[];
  /** What was present but not covered, and why — never reported clean. */
  not_covered: Array<{ kind: string; files: number; reason: string }>;
}

export interface ScanResult {
  findings: RawFinding[];
  coverage: Coverage;
  /** Non-fatal problems (a file that could not be parsed...), for the scan record. */
  errors: string[];
}

export interface Scanner {
  type: ScanType;
  /** Scans the checked-out tree at `root`. */
  scan(root: string): Promise<ScanResult>;
  /**
   * Starts, without waiting, what a scan will need and a new container lacks (the sast scanner's
   * worker threads), so that it gets ready while the tree is being checked out.
   */
  prepare?(): void;
}
