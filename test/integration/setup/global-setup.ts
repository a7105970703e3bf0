export default async (): Promise<void> => {};
