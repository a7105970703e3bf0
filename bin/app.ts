import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../lib/app';

const app = new App();
buildApp(app);
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
