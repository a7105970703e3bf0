import { ArnFormat, Stack, Token } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

const plainAddress = /^[^\s@<>"]+@[^\s@<>"]+$/;

/**
 * The one topic every alarm of the service notifies (on ALARM and back to OK). Encrypted with a
 * key of its own, since CloudWatch may not use SNS's AWS managed key; the context `alarmEmail`
 * subscribes an address (SNS asks it to confirm once).
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly action: IAlarmAction;

  constructor(scope: Construct, id: string, props: { email?: string }) {
    super(scope, id);
    if (props.email !== undefined && !Token.isUnresolved(props.email) && !plainAddress.test(props.email)) {
      throw new Error(`alarmEmail must be a bare e-mail address, not "${props.email}"`);
    }
    const key = new Key(this, 'Key', { enableKeyRotation: true, description: 'Encrypts the alarm topic' });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Topic', { displayName: 'Project automation service alarms', masterKey: key, enforceSSL: true });
    // enforceSSL writes the topic's policy, which replaces SNS's default one: CloudWatch must be let
    // in by name, or every alarm fails to publish ("no resource-based policy allows").
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    this.action = new SnsAction(this.topic);
  }
}
