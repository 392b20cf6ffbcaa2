# A Network Firewall rule group of each type and an Auto Scaling group's traffic
# source, as terraform-aws-modules/network-firewall's and autoscaling's complete
# examples declare them. moto 5.2 has no rule group operation and no
# AttachTrafficSources (networkfirewall.rule-groups, autoscaling.traffic-sources).
# The group's tagged launch template, its settings and its scaling policy read back
# otherwise on moto 5.2 (ec2.launch-template-data-tags, autoscaling.group-settings,
# autoscaling.policy-enabled): each was a permanent diff.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_networkfirewall_rule_group" "stateful" {
  name        = "ex-stateful"
  description = "Stateful Inspection for denying access to a domain"
  type        = "STATEFUL"
  capacity    = 100

  rule_group {
    rules_source {
      rules_source_list {
        generated_rules_type = "DENYLIST"
        target_types         = ["HTTP_HOST"]
        targets              = ["test.example.com"]
      }
    }
  }

  tags = {
    Example = "fidelity"
  }
}

resource "aws_networkfirewall_rule_group" "stateless" {
  name        = "ex-stateless"
  description = "Stateless Inspection with a Custom Action"
  type        = "STATELESS"
  capacity    = 100

  rule_group {
    rules_source {
      stateless_rules_and_custom_actions {
        custom_action {
          action_definition {
            publish_metric_action {
              dimension {
                value = "2"
              }
            }
          }
          action_name = "ExampleMetricsAction"
        }
        stateless_rule {
          priority = 1
          rule_definition {
            actions = ["aws:pass", "ExampleMetricsAction"]
            match_attributes {
              source {
                address_definition = "1.2.3.4/32"
              }
              source_port {
                from_port = 443
                to_port   = 443
              }
              protocols = [6]
              tcp_flag {
                flags = ["SYN"]
                masks = ["SYN", "ACK"]
              }
            }
          }
        }
      }
    }
  }

  tags = {
    Example = "fidelity"
  }
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.0.1.0/24"
}

# The firewall policy using both groups, shared by a resource policy, and a firewall
# of it with no protection declared (AWS's defaults: none, so destroy deletes it).
# moto 5.2 has no policy or resource policy operation, protects every firewall and
# cannot delete one (networkfirewall.firewall-policies, .resource-policies,
# .firewall-settings).
resource "aws_networkfirewall_firewall_policy" "this" {
  name        = "ex-policy"
  description = "Both rule groups"

  firewall_policy {
    stateless_default_actions          = ["aws:pass"]
    stateless_fragment_default_actions = ["aws:drop"]

    stateful_rule_group_reference {
      resource_arn = aws_networkfirewall_rule_group.stateful.arn
    }

    stateless_rule_group_reference {
      priority     = 1
      resource_arn = aws_networkfirewall_rule_group.stateless.arn
    }
  }

  tags = {
    Example = "fidelity"
  }
}

data "aws_caller_identity" "this" {}

resource "aws_networkfirewall_resource_policy" "this" {
  resource_arn = aws_networkfirewall_firewall_policy.this.arn
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = "arn:aws:iam::${data.aws_caller_identity.this.account_id}:root" }
      Action = [
        "network-firewall:ListFirewallPolicies",
        "network-firewall:CreateFirewall",
        "network-firewall:UpdateFirewall",
        "network-firewall:AssociateFirewallPolicy",
      ]
      Resource = aws_networkfirewall_firewall_policy.this.arn
    }]
  })
}

resource "aws_networkfirewall_firewall" "this" {
  name                = "ex-firewall"
  description         = "The policy's firewall"
  firewall_policy_arn = aws_networkfirewall_firewall_policy.this.arn
  vpc_id              = aws_vpc.this.id

  subnet_mapping {
    subnet_id = aws_subnet.this.id
  }

  tags = {
    Example = "fidelity"
  }
}

# What a route to the firewall takes (networkfirewall.firewall-endpoints).
output "firewall_endpoint_id" {
  value = one(flatten(aws_networkfirewall_firewall.this.firewall_status[0].sync_states[*].attachment[*].endpoint_id))
}

resource "aws_lb_target_group" "this" {
  name     = "ex-asg"
  port     = 80
  protocol = "HTTP"
  vpc_id   = aws_vpc.this.id
}

resource "aws_launch_template" "this" {
  name                   = "ex-asg"
  image_id               = "ami-1e749f67"
  instance_type          = "t3.micro"
  update_default_version = true

  # The template's own tags, and the tags of the instances it launches.
  tags = {
    Example = "fidelity"
  }

  tag_specifications {
    resource_type = "instance"
    tags = {
      Name = "ex-asg"
    }
  }
}

resource "aws_autoscaling_group" "this" {
  name                = "ex-asg"
  min_size            = 0
  max_size            = 1
  desired_capacity    = 0
  vpc_zone_identifier = [aws_subnet.this.id]

  default_instance_warmup = 300
  desired_capacity_type   = "units"

  instance_maintenance_policy {
    min_healthy_percentage = 100
    max_healthy_percentage = 110
  }

  launch_template {
    id      = aws_launch_template.this.id
    version = aws_launch_template.this.latest_version
  }

  # As the autoscaling module does: the attachment below owns the target group.
  lifecycle {
    ignore_changes = [load_balancers, target_group_arns]
  }
}

resource "aws_autoscaling_traffic_source_attachment" "this" {
  autoscaling_group_name = aws_autoscaling_group.this.id

  traffic_source {
    identifier = aws_lb_target_group.this.arn
    type       = "elbv2"
  }
}

resource "aws_autoscaling_policy" "this" {
  name                   = "scale-out"
  autoscaling_group_name = aws_autoscaling_group.this.name
  adjustment_type        = "ChangeInCapacity"
  scaling_adjustment     = 1
}

# An ECS service declaring the settings terraform-aws-modules/ecs's service module
# sets: moto 5.2 keeps none of them at CreateService, so each settled only when the
# second apply updated the service (ecs.service-settings).
resource "aws_ecs_cluster" "this" {
  name = "ex-ecs"
}

resource "aws_ecs_task_definition" "this" {
  family                   = "ex-ecs"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = 256
  memory                   = 512
  container_definitions = jsonencode([{
    name      = "app"
    image     = "public.ecr.aws/nginx/nginx:latest"
    essential = true
  }])
}

resource "aws_ecs_service" "this" {
  name            = "ex-ecs"
  cluster         = aws_ecs_cluster.this.arn
  task_definition = aws_ecs_task_definition.this.arn
  desired_count   = 1
  launch_type     = "FARGATE"

  availability_zone_rebalancing = "DISABLED"
  enable_ecs_managed_tags       = true
  enable_execute_command        = true
  propagate_tags                = "SERVICE"

  deployment_maximum_percent         = 150
  deployment_minimum_healthy_percent = 50

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets         = [aws_subnet.this.id]
    security_groups = [aws_vpc.this.default_security_group_id]
  }

  # Do not wait on tasks moto never runs.
  wait_for_steady_state = false
}

# An Aurora cluster as terraform-aws-modules/rds-aurora's postgresql and multi-az
# examples declare it: I/O-Optimized storage, Performance Insights, a custom endpoint,
# and a DB parameter group setting a parameter. On moto 5.2 the cluster's create failed
# (rds.cluster-storage-types), Performance Insights read back disabled
# (rds.cluster-settings), the endpoint was untested (rds.cluster-endpoints) and the
# parameter read back as none (rds.parameters-by-source).
resource "aws_db_parameter_group" "this" {
  name   = "ex-aurora"
  family = "aurora-postgresql14"

  parameter {
    name         = "log_min_duration_statement"
    value        = "4000"
    apply_method = "immediate"
  }
}

resource "aws_rds_cluster" "this" {
  cluster_identifier = "ex-aurora"
  engine             = "aurora-postgresql"
  engine_version     = "14.13"
  storage_type       = "aurora-iopt1"
  master_username    = "root"
  master_password    = "example-password"

  performance_insights_enabled          = true
  performance_insights_retention_period = 31

  apply_immediately   = true
  skip_final_snapshot = true
}

resource "aws_rds_cluster_endpoint" "this" {
  cluster_identifier          = aws_rds_cluster.this.id
  cluster_endpoint_identifier = "ex-any"
  custom_endpoint_type        = "ANY"
}
