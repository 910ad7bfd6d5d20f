# The demo's notes. The access policies are what hide a note: the page asks for every Note and
# gets the caller's own plus the shared ones of others, and may write only its own.
module default {
  type Note {
    required title: str {
      constraint min_len_value(1);
      constraint max_len_value(200);
    };
    body: str {
      constraint max_len_value(10000);
    };
    required shared: bool {
      default := false;
    };
    # Who wrote it, from the caller's token: never sent by the page, and never changed.
    required owner_id: uuid {
      default := global current_user_id;
      readonly := true;
    };
    required owner_email: str {
      default := global current_user_email;
      readonly := true;
    };
    required created_at: datetime {
      default := datetime_current();
      readonly := true;
    };

    # The author reads, writes and deletes their own notes (and may insert only as themselves).
    access policy author_has_full_access
      allow all
      using (.owner_id ?= global current_user_id);
    # Anyone signed in reads a shared note; only its author changes it (the policy above).
    access policy signed_in_read_shared
      allow select
      using (.shared and exists global current_user_id);
  }
}
