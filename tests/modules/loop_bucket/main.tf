# A versioned bucket: someone can turn Object Lock on out of band, which
# provider 3.39 can only revert by replacing the bucket (object_lock_enabled
# forces a new resource).
provider "aws" {
  region = "us-east-1"
}

resource "aws_s3_bucket" "records" {
  bucket = "loop-records"
  versioning {
    enabled = true
  }
}
