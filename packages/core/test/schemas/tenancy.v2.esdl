# Access policies and globals, v2: only policies and globals change (steps without SQL),
# plus one new property.
module default {
    global current_tenant: uuid;
    global current_locale: str;
    required global read_only: bool {
        default := false;
    }
    global current_user := (select User filter .id = global current_user_id);

    type Tenant {
        required name: str { constraint exclusive; }
        required plan: str { default := 'free'; }
        access policy everyone allow select;
    }

    type User {
        required email: str { constraint exclusive; }
        required tenant: Tenant;
        required is_admin: bool { default := false; }
        access policy same_tenant allow select using (.tenant.id ?= global current_tenant);
        access policy admins_insert allow insert using (exists (global current_user).is_admin);
    }

    type Note {
        required title: str;
        body: str;
        pinned: bool;
        required owner: User { on target delete delete source; }
        required shared: bool { default := false; }
        access policy owner_all allow all using (.owner.id ?= global current_user_id);
        access policy shared_read allow select using (.shared and .owner.tenant.id ?= global current_tenant);
        access policy no_writes_when_read_only deny insert, update, delete using (global read_only) {
            errmessage := 'the service is read-only';
        };
    }
}
