-- step: create property default::Note.pinned (std::bool)
alter table "default"."Note" add column "pinned" boolean;

-- step: alter access policy shared_read on default::Note

-- step: create access policy everyone on default::Tenant (allow select)

-- step: drop access policy self_update on default::User

-- step: create global default::current_locale
