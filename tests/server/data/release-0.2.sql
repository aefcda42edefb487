BEGIN TRANSACTION;
CREATE TABLE actions (
	game_id VARCHAR(32) NOT NULL, 
	step INTEGER NOT NULL, 
	action INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	PRIMARY KEY (game_id, step)
);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',0,27,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',1,26,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',2,29,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',3,26,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',4,29,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',5,28,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',6,26,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',7,29,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',8,32,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',9,8,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',10,20,0);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',11,26,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',12,1,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',13,20,1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',14,27,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',15,16,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',16,20,0);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',17,28,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',18,4,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',19,20,1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',20,28,-1);
INSERT INTO "actions" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',21,18,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',0,29,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',1,28,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',2,31,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',3,26,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',4,31,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',5,27,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',6,26,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',7,26,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',8,32,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',9,16,-1);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',10,20,0);
INSERT INTO "actions" VALUES('oydCN1wmLcg68sCPxENMxA',11,28,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',0,29,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',1,29,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',2,28,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',3,29,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',4,26,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',5,26,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',6,27,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',7,30,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',8,32,-1);
INSERT INTO "actions" VALUES('9QrbbD1ZEOs665L2DxDZFQ',9,6,-1);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0006');
CREATE TABLE bot_claims (
	game_id VARCHAR(32) NOT NULL, 
	step INTEGER NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	expires FLOAT NOT NULL, 
	PRIMARY KEY (game_id, step)
);
CREATE TABLE chat (
	game_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	body VARCHAR(300) NOT NULL, 
	sent FLOAT NOT NULL, 
	PRIMARY KEY (game_id, number)
);
INSERT INTO "chat" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',0,0,'seat 0','good luck',1.79613947503050398824e+09);
CREATE TABLE deck_tests (
	id VARCHAR(32) NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	deck VARCHAR(200) NOT NULL, 
	games INTEGER NOT NULL, 
	results TEXT NOT NULL, 
	state VARCHAR(16) NOT NULL, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE decks (
	id VARCHAR(32) NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	deck VARCHAR(200) NOT NULL, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT decks_owner_game_name UNIQUE (owner, game, name)
);
CREATE TABLE game_hints (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	first VARCHAR(32) NOT NULL, 
	PRIMARY KEY (game_id, seat)
);
CREATE TABLE game_reviews (
	game_id VARCHAR(32) NOT NULL, 
	viewer VARCHAR(8) NOT NULL, 
	review TEXT NOT NULL, 
	created VARCHAR(32) NOT NULL, 
	PRIMARY KEY (game_id, viewer)
);
CREATE TABLE "games" (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	options TEXT NOT NULL, 
	host_token VARCHAR(64) NOT NULL, 
	created VARCHAR(32) NOT NULL, 
	returns TEXT, 
	rematch VARCHAR(32), 
	visibility VARCHAR(16) DEFAULT 'unlisted' NOT NULL, 
	time_control VARCHAR(32) DEFAULT 'none' NOT NULL, 
	started FLOAT, 
	finished FLOAT, 
	turn_started FLOAT, 
	deadline FLOAT, 
	ending TEXT, 
	outcome TEXT, 
	rated BOOLEAN DEFAULT 0 NOT NULL, 
	rating_state VARCHAR(8) DEFAULT 'none' NOT NULL, 
	host_player VARCHAR(32), 
	reveal BOOLEAN DEFAULT 0 NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES('Ftwk7J2Z5rQWgFO8J079Wg','hadronize','{"players": 2, "goal": 10, "max_turns": 0}','2wUNDqE_IOf0zNQl3DsXLg30','2026-12-01T15:37:54+00:00',NULL,NULL,'public','none',NULL,NULL,NULL,NULL,NULL,NULL,0,'none','3ff33be6beb175c6d8c2942d0cd985e4',0);
INSERT INTO "games" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ','hadronize','{"players": 2, "goal": 10, "max_turns": 0}','nnSXN23XjdV3IPLivCEZMwgZ','2026-12-01T15:37:54+00:00',NULL,NULL,'unlisted','none',1.79613947497207665439e+09,NULL,1.79613947502738714213e+09,NULL,NULL,NULL,0,'none',NULL,0);
INSERT INTO "games" VALUES('oydCN1wmLcg68sCPxENMxA','hadronize','{"players": 2, "goal": 1, "max_turns": 0}','9onamjk0ycpaptJfKtsaxfj4','2026-12-01T15:37:55+00:00','[1.0, -1.0]','9QrbbD1ZEOs665L2DxDZFQ','unlisted','none',1.79613947506189227101e+09,1.79613947506963205335e+09,1.79613947506963205335e+09,NULL,NULL,'{"result": "win", "winners": [0], "ending": ""}',0,'none',NULL,0);
INSERT INTO "games" VALUES('9QrbbD1ZEOs665L2DxDZFQ','hadronize','{"players": 2, "goal": 1, "max_turns": 0}','nDLF_Y9Dl_8qKSV_Nwbt9zgU','2026-12-01T15:37:55+00:00',NULL,NULL,'unlisted','none',1.79613947507788062098e+09,NULL,1.79613947507983779902e+09,NULL,NULL,NULL,0,'none',NULL,0);
INSERT INTO "games" VALUES('dnOPucVKTMn5qZS6RQxCkw','hadronize','{"players": 2, "goal": 10, "max_turns": 0}','L8OSdxGDPENqB0sKy8-46yQ_','2026-12-01T15:37:55+00:00',NULL,NULL,'public','none',NULL,NULL,NULL,NULL,NULL,NULL,0,'none','138d002826f1fadebe1a3bf79b67b8ae',0);
CREATE TABLE learn_finals (
	learner VARCHAR(64) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	PRIMARY KEY (learner, game)
);
CREATE TABLE learn_progress (
	learner VARCHAR(64) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	lesson VARCHAR(64) NOT NULL, 
	done VARCHAR(32) NOT NULL, 
	PRIMARY KEY (learner, game, lesson)
);
INSERT INTO "learn_progress" VALUES('FX5mgHe50ShBtY9zU6xDOHnx','hadronize','first-quark','2026-12-01T15:37:55+00:00');
CREATE TABLE players (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(20) NOT NULL, 
	name_key VARCHAR(20) NOT NULL, 
	password VARCHAR(200), 
	created FLOAT NOT NULL, 
	settings TEXT DEFAULT '{}' NOT NULL, 
	session_gen INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_key)
);
INSERT INTO "players" VALUES('3ff33be6beb175c6d8c2942d0cd985e4','CharmedMeson735','charmedmeson735',NULL,1.79613947488331794741e+09,'{}',0);
INSERT INTO "players" VALUES('138d002826f1fadebe1a3bf79b67b8ae','Ada','ada','$argon2id$v=19$m=65536,t=3,p=4$WFRWHuKnRoZXCsb64l9jNA$dv1c/HeYNLcPybmGDZRiOnFvEYcs/tQA13UCKhlG7TM',1.79613947508373665812e+09,'{}',1);
CREATE TABLE rating_changes (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	subject VARCHAR(40) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	players INTEGER NOT NULL, 
	"before" FLOAT NOT NULL, 
	"after" FLOAT NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (game_id, seat)
);
CREATE TABLE ratings (
	subject VARCHAR(40) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	players INTEGER NOT NULL, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	games INTEGER NOT NULL, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (subject, game, players)
);
CREATE TABLE seats (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	agent VARCHAR(200), 
	name VARCHAR(100) NOT NULL, 
	token VARCHAR(64), 
	joined BOOLEAN NOT NULL, invite VARCHAR(64), invite_expires FLOAT, link VARCHAR(64), link_expires FLOAT, fault TEXT, player_id VARCHAR(32), remaining FLOAT, replaced VARCHAR(16), 
	PRIMARY KEY (game_id, seat)
);
INSERT INTO "seats" VALUES('Ftwk7J2Z5rQWgFO8J079Wg',0,'you',NULL,'CharmedMeson735','ASyv2BlZRIXLYcZOazbF2KO8',1,NULL,NULL,NULL,NULL,NULL,'3ff33be6beb175c6d8c2942d0cd985e4',NULL,NULL);
INSERT INTO "seats" VALUES('Ftwk7J2Z5rQWgFO8J079Wg',1,'friend',NULL,'seat 1','KCPh_3i750yxexVqlmA9cSs9',0,'41StoNnrlrU6Nx5KDCeTTW9I',1.796744274945933342e+09,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',0,'friend',NULL,'seat 0','VQErqy2uEa3e4Z4sqS-9vdg_',1,NULL,NULL,'BUBbUnzBOos2YHUcgGEUNUli',1.79614007503431844705e+09,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('kvH4ZYbFCqWW7jS3bJEDzQ',1,'friend',NULL,'seat 1','tugkEbDL0tm71H9Kb3pseBCA',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('oydCN1wmLcg68sCPxENMxA',0,'friend',NULL,'seat 0','vceQvoKXRU5C0csuT1q4AvGT',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('oydCN1wmLcg68sCPxENMxA',1,'friend',NULL,'seat 1','ALB0V5T2hXOKBxa0VvXmNnx3',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('9QrbbD1ZEOs665L2DxDZFQ',0,'friend',NULL,'seat 0','qQeLHiNpp-shvVVw4RfS-GIy',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('9QrbbD1ZEOs665L2DxDZFQ',1,'friend',NULL,'seat 1','SYAsPUtsjWU3tjM2GZuMRLfp',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "seats" VALUES('dnOPucVKTMn5qZS6RQxCkw',0,'you',NULL,'Ada','kz3-K1xWjPGl0SkjWLH7vNWX',1,NULL,NULL,NULL,NULL,NULL,'138d002826f1fadebe1a3bf79b67b8ae',NULL,NULL);
INSERT INTO "seats" VALUES('dnOPucVKTMn5qZS6RQxCkw',1,'open',NULL,'seat 1',NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE server_settings (
	"key" VARCHAR(64) NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);
INSERT INTO "server_settings" VALUES('session_secret','gnZC2sYvQMfekLHT6R3MbN4FJ4QfkBBjOoqvd0kvnqs8cydPMy8jIo1ciynpl5bR');
CREATE INDEX seats_player ON seats (player_id);
CREATE INDEX rating_changes_subject ON rating_changes (subject, game, players);
CREATE INDEX games_deadline ON games (deadline);
COMMIT;
