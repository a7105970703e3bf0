export class ArtifactStoreConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactStoreConfigurationError';
  }
}
