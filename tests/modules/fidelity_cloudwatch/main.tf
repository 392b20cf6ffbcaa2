# CloudWatch composite alarms, metric streams and log anomaly detectors, which moto 5.2
# lacks (the fidelity layer's cloudwatch.composite-alarms, cloudwatch.metric-streams and
# logs.anomaly-detectors), as the terraform-aws-modules cloudwatch v5.7.2 examples use them
# (include and exclude filters, statistics configurations, an actions suppressor).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_sns_topic" "alarms" {
  name = "alarms"
}

resource "aws_cloudwatch_metric_alarm" "cpu" {
  alarm_name          = "cpu-high"
  namespace           = "AWS/EC2"
  metric_name         = "CPUUtilization"
  statistic           = "Average"
  period              = 60
  evaluation_periods  = 2
  threshold           = 80
  comparison_operator = "GreaterThanThreshold"
}

resource "aws_cloudwatch_metric_alarm" "status" {
  alarm_name          = "status-check-failed"
  namespace           = "AWS/EC2"
  metric_name         = "StatusCheckFailed"
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 1
  threshold           = 0
  comparison_operator = "GreaterThanThreshold"
}

resource "aws_cloudwatch_composite_alarm" "this" {
  alarm_name        = "instance-unhealthy"
  alarm_description = "CPU high or a failed status check"
  alarm_rule        = "ALARM(${aws_cloudwatch_metric_alarm.cpu.alarm_name}) OR ALARM(\"${aws_cloudwatch_metric_alarm.status.alarm_name}\")"
  alarm_actions     = [aws_sns_topic.alarms.arn]
  ok_actions        = [aws_sns_topic.alarms.arn]

  actions_suppressor {
    alarm            = aws_cloudwatch_metric_alarm.status.alarm_name
    extension_period = 60
    wait_period      = 120
  }

  tags = {
    Team = "ops"
  }
}

data "aws_iam_policy_document" "streams" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["streams.metrics.cloudwatch.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "stream" {
  name               = "metric-stream"
  assume_role_policy = data.aws_iam_policy_document.streams.json
}

resource "aws_s3_bucket" "metrics" {
  bucket = "fidelity-metric-stream"
}

data "aws_iam_policy_document" "firehose" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["firehose.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "firehose" {
  name               = "metric-stream-firehose"
  assume_role_policy = data.aws_iam_policy_document.firehose.json
}

resource "aws_kinesis_firehose_delivery_stream" "metrics" {
  name        = "metric-stream"
  destination = "extended_s3"

  extended_s3_configuration {
    role_arn   = aws_iam_role.firehose.arn
    bucket_arn = aws_s3_bucket.metrics.arn
  }
}

resource "aws_cloudwatch_metric_stream" "this" {
  name          = "ec2-metrics"
  role_arn      = aws_iam_role.stream.arn
  firehose_arn  = aws_kinesis_firehose_delivery_stream.metrics.arn
  output_format = "json"

  include_filter {
    namespace    = "AWS/EC2"
    metric_names = ["CPUUtilization", "StatusCheckFailed"]
  }

  tags = {
    Team = "ops"
  }
}

resource "aws_cloudwatch_metric_stream" "percentiles" {
  name_prefix   = "percentiles-"
  role_arn      = aws_iam_role.stream.arn
  firehose_arn  = aws_kinesis_firehose_delivery_stream.metrics.arn
  output_format = "opentelemetry1.0"

  exclude_filter {
    namespace = "AWS/Logs"
  }

  exclude_filter {
    namespace    = "AWS/Usage"
    metric_names = ["CallCount"]
  }

  statistics_configuration {
    additional_statistics = ["p99", "TM(10%:90%)"]

    include_metric {
      namespace   = "AWS/EC2"
      metric_name = "CPUUtilization"
    }
  }
}

resource "aws_cloudwatch_log_group" "app" {
  name = "/app/service"
}

resource "aws_cloudwatch_log_anomaly_detector" "this" {
  detector_name        = "app-service"
  log_group_arn_list   = [aws_cloudwatch_log_group.app.arn]
  evaluation_frequency = "FIFTEEN_MIN"
  enabled              = true

  tags = {
    Team = "ops"
  }
}

output "composite_alarm_arn" {
  value = aws_cloudwatch_composite_alarm.this.arn
}
