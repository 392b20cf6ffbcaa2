"""Resource types whose replacement or deletion loses data (one list, one place).

Used by upgrades (``destructive-upgrade``) and continuous loops
(``destructive-correction``); users extend it through the
``pytest_converge_stateful_types`` hook.
"""

from __future__ import annotations

STATEFUL_TYPES: frozenset[str] = frozenset(
    {
        "aws_backup_vault",
        "aws_cloudwatch_log_group",
        "aws_codecommit_repository",
        "aws_cognito_user_pool",
        "aws_db_instance",
        "aws_docdb_cluster",
        "aws_dynamodb_global_table",
        "aws_dynamodb_table",
        "aws_ebs_snapshot",
        "aws_ebs_volume",
        "aws_ecr_repository",
        "aws_efs_file_system",
        "aws_elasticache_cluster",
        "aws_elasticache_replication_group",
        "aws_elasticsearch_domain",
        "aws_fsx_lustre_file_system",
        "aws_fsx_windows_file_system",
        "aws_glacier_vault",
        "aws_keyspaces_table",
        "aws_kinesis_firehose_delivery_stream",
        "aws_kinesis_stream",
        "aws_kms_key",
        "aws_memorydb_cluster",
        "aws_msk_cluster",
        "aws_neptune_cluster",
        "aws_opensearch_domain",
        "aws_qldb_ledger",
        "aws_rds_cluster",
        "aws_rds_cluster_instance",
        "aws_redshift_cluster",
        "aws_route53_zone",
        "aws_s3_bucket",
        "aws_s3_bucket_object",
        "aws_secretsmanager_secret",
        "aws_sns_topic",
        "aws_sqs_queue",
        "aws_ssm_parameter",
        "aws_timestreamwrite_table",
    }
)
