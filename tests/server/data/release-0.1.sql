BEGIN TRANSACTION;
CREATE TABLE actions (
	game_id VARCHAR(32) NOT NULL, 
	step INTEGER NOT NULL, 
	action INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	PRIMARY KEY (game_id, step)
);
INSERT INTO "actions" VALUES('m0NyJEC4',0,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',1,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',2,29,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',3,27,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',4,29,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',5,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',6,26,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',7,30,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',8,27,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',9,26,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',10,27,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',11,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',12,32,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',13,17,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',14,20,0);
INSERT INTO "actions" VALUES('m0NyJEC4',15,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',16,2,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',17,22,1);
INSERT INTO "actions" VALUES('m0NyJEC4',18,30,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',19,7,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',20,20,2);
INSERT INTO "actions" VALUES('m0NyJEC4',21,26,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',22,6,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',23,21,0);
INSERT INTO "actions" VALUES('m0NyJEC4',24,28,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',25,13,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',26,20,1);
INSERT INTO "actions" VALUES('m0NyJEC4',27,29,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',28,18,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',29,21,2);
INSERT INTO "actions" VALUES('m0NyJEC4',30,31,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',31,4,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',32,21,0);
INSERT INTO "actions" VALUES('m0NyJEC4',33,29,-1);
INSERT INTO "actions" VALUES('m0NyJEC4',34,14,-1);
INSERT INTO "actions" VALUES('Z2huokS4',0,2530,-1);
INSERT INTO "actions" VALUES('Z2huokS4',1,26,0);
INSERT INTO "actions" VALUES('Z2huokS4',2,41,1);
INSERT INTO "actions" VALUES('Z2huokS4',3,2506,1);
INSERT INTO "actions" VALUES('Z2huokS4',4,1671,0);
INSERT INTO "actions" VALUES('Z2huokS4',5,69,1);
INSERT INTO "actions" VALUES('Z2huokS4',6,2528,1);
INSERT INTO "actions" VALUES('Z2huokS4',7,2178,0);
INSERT INTO "actions" VALUES('Z2huokS4',8,2528,0);
INSERT INTO "actions" VALUES('Z2huokS4',9,2529,1);
INSERT INTO "actions" VALUES('Z2huokS4',10,77,0);
INSERT INTO "actions" VALUES('Z2huokS4',11,2525,0);
INSERT INTO "actions" VALUES('Z2huokS4',12,103,1);
INSERT INTO "actions" VALUES('Z2huokS4',13,12,0);
INSERT INTO "actions" VALUES('Z2huokS4',14,281,1);
INSERT INTO "actions" VALUES('Z2huokS4',15,184,0);
INSERT INTO "actions" VALUES('Z2huokS4',16,54,1);
INSERT INTO "actions" VALUES('Z2huokS4',17,148,0);
INSERT INTO "actions" VALUES('Z2huokS4',18,1845,1);
INSERT INTO "actions" VALUES('Z2huokS4',19,2528,1);
INSERT INTO "actions" VALUES('Z2huokS4',20,129,0);
INSERT INTO "actions" VALUES('Z2huokS4',21,174,1);
INSERT INTO "actions" VALUES('Z2huokS4',22,2528,1);
INSERT INTO "actions" VALUES('Z2huokS4',23,35,0);
INSERT INTO "actions" VALUES('Z2huokS4',24,16,1);
INSERT INTO "actions" VALUES('Z2huokS4',25,2529,0);
INSERT INTO "actions" VALUES('Z2huokS4',26,2529,1);
INSERT INTO "actions" VALUES('1xL3eSaV',0,2531,-1);
INSERT INTO "actions" VALUES('dxOeNaSn',0,10,-1);
INSERT INTO "actions" VALUES('D848gRcS',0,14,-1);
INSERT INTO "actions" VALUES('D848gRcS',1,4,-1);
INSERT INTO "actions" VALUES('D848gRcS',2,8,-1);
INSERT INTO "actions" VALUES('D848gRcS',3,9,-1);
INSERT INTO "actions" VALUES('D848gRcS',4,7,-1);
INSERT INTO "actions" VALUES('D848gRcS',5,10,-1);
INSERT INTO "actions" VALUES('D848gRcS',6,0,-1);
INSERT INTO "actions" VALUES('D848gRcS',7,6,-1);
INSERT INTO "actions" VALUES('D848gRcS',8,11,-1);
INSERT INTO "actions" VALUES('D848gRcS',9,4,-1);
INSERT INTO "actions" VALUES('D848gRcS',10,6,-1);
INSERT INTO "actions" VALUES('D848gRcS',11,9,-1);
INSERT INTO "actions" VALUES('D848gRcS',12,16,0);
INSERT INTO "actions" VALUES('D848gRcS',13,0,-1);
INSERT INTO "actions" VALUES('D848gRcS',14,21,1);
INSERT INTO "actions" VALUES('D848gRcS',15,23,1);
INSERT INTO "actions" VALUES('D848gRcS',16,16,1);
INSERT INTO "actions" VALUES('D848gRcS',17,3,-1);
INSERT INTO "actions" VALUES('D848gRcS',18,21,0);
INSERT INTO "actions" VALUES('D848gRcS',19,43,0);
INSERT INTO "actions" VALUES('D848gRcS',20,25,0);
INSERT INTO "actions" VALUES('D848gRcS',21,16,0);
INSERT INTO "actions" VALUES('D848gRcS',22,3,-1);
INSERT INTO "actions" VALUES('D848gRcS',23,16,1);
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	options TEXT NOT NULL, 
	host_token VARCHAR(64) NOT NULL, 
	created VARCHAR(32) NOT NULL, 
	returns TEXT, 
	rematch VARCHAR(32), 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES('m0NyJEC4','hadronize','{"players": 3, "goal": 10, "max_turns": 0}','fAPiFq3LeVHNaoiLVDhV2QIz','2026-11-30T19:28:54+00:00',NULL,NULL);
INSERT INTO "games" VALUES('Z2huokS4','card-commons','{"players": 2, "variant": "classic", "torus": false}','-rsIyPrcFkjWGDzMq-610Jtr','2026-11-30T19:28:54+00:00','[1.0, -1.0]','1xL3eSaV');
INSERT INTO "games" VALUES('1xL3eSaV','card-commons','{"players": 2, "variant": "classic", "torus": false}','-rsIyPrcFkjWGDzMq-610Jtr','2026-11-30T19:28:54+00:00',NULL,NULL);
INSERT INTO "games" VALUES('dxOeNaSn','dead-cat','{"players": 2, "peek_first": false}','Ng4VRLZlcnmml1_P9eoIlrL7','2026-11-30T19:28:54+00:00',NULL,NULL);
INSERT INTO "games" VALUES('D848gRcS','decoherence','{"players": 2, "deck0": "balanced", "deck1": "balanced", "open_decklists": false}','uecL0j-o2xZghNdj0UQ0UM90','2026-11-30T19:28:54+00:00','[1.0, -1.0]',NULL);
CREATE TABLE seats (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	agent VARCHAR(200), 
	name VARCHAR(100) NOT NULL, 
	token VARCHAR(64), 
	joined BOOLEAN NOT NULL, 
	PRIMARY KEY (game_id, seat)
);
INSERT INTO "seats" VALUES('m0NyJEC4',0,'friend',NULL,'seat 0','vY5ERBJDiuRaAYhCpYPDP5q_',0);
INSERT INTO "seats" VALUES('m0NyJEC4',1,'friend',NULL,'seat 1','ocrKAiMuDnrh7ODCaH5pg3KE',0);
INSERT INTO "seats" VALUES('m0NyJEC4',2,'friend',NULL,'seat 2','SDJ5JzZt0S9FikR5Qu-HHmnc',0);
INSERT INTO "seats" VALUES('Z2huokS4',0,'friend',NULL,'seat 0','YWrvzZwzbUfbjHBSJ_htuWHd',0);
INSERT INTO "seats" VALUES('Z2huokS4',1,'friend',NULL,'seat 1','Hp86qdyWspWRTLwgYGFi_02k',0);
INSERT INTO "seats" VALUES('1xL3eSaV',0,'friend',NULL,'seat 0','YWrvzZwzbUfbjHBSJ_htuWHd',0);
INSERT INTO "seats" VALUES('1xL3eSaV',1,'friend',NULL,'seat 1','Hp86qdyWspWRTLwgYGFi_02k',0);
INSERT INTO "seats" VALUES('dxOeNaSn',0,'you',NULL,'seat 0','IYoxl3bwv5iJ62YMjjOclj2J',1);
INSERT INTO "seats" VALUES('dxOeNaSn',1,'friend',NULL,'seat 1','yZOOO-lMsNtMvpFtCWafJuZw',0);
INSERT INTO "seats" VALUES('D848gRcS',0,'friend',NULL,'seat 0','xDv_9g63MRaPJq4PKyH7K6hB',0);
INSERT INTO "seats" VALUES('D848gRcS',1,'friend',NULL,'seat 1','Tcx0VjJPVgEHGl7oE4Aaa7ly',0);
COMMIT;
