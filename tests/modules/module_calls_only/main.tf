# A root that names no aws provider, resource or requirement: only module
# calls (the layout of many public modules' examples). One child uses the
# default aws configuration it inherits; the other has a provider block of
# its own (legacy, still common). Both must reach the emulator only.
module "identity" {
  source = "./identity"
}

module "replica" {
  source = "./replica"
}

output "account_id" {
  value = module.identity.account_id
}
